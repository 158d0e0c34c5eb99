import { describe, expect, it } from "vitest";
import { encrypt, exportSymmetricKey, generateSymmetricKey } from "../aead";
import { generateAccountKeys } from "../account-keys";
import { utf8Decode, utf8Encode } from "../bytes";
import { parseEnvelope, serializeEnvelope } from "../envelope";
import type { CryptoErrorCode } from "../errors";
import type { Key } from "../primitives";
import { sealFor } from "../seal";
import { signRecordV2 } from "../signatures";
import { expectRefusal, mutations, nonCanonicalTexts } from "../test-support";
import { type SignedSealedKey, digest } from "./distribution";
import { GROUP_ID, groupSetting } from "./group-test-support";
import type { IdentityKeys } from "./identity-keys";
import { createLog, membershipContainer, verifyLog } from "./membership-log";
import {
  dockeyAad,
  generateRecordId,
  generateRecordKey,
  grantRecordKey,
  openRecordGrant,
  openRecordPayload,
  recordGrantContext,
  recordPayloadAad,
  sealRecordPayload,
  unwrapRecordKey,
  wrapRecordKey,
} from "./record-key";
import { T0, refuseEveryMutation } from "./v2-test-support";

const raw = async (key: Key) => Array.from(await exportSymmetricKey(key));
const RID = "AAECAwQFBgcICQoLDA0ODw"; // bytes 0..15
const place = { groupId: GROUP_ID, recordId: RID };

describe("record ids and strings", () => {
  it("a record id is 16 random bytes in base64url; every string names group, record and (for dockeys) epoch", () => {
    const ids = new Set(Array.from({ length: 50 }, generateRecordId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(recordPayloadAad(7, RID)).toBe(`mote:7:${RID}`);
    expect(dockeyAad(7, RID, 3)).toBe(`dockey:7:${RID}:3`);
    expect(recordGrantContext(7, RID)).toBe(`dek:7:${RID}`);
  });

  it("refuses ids that are not canonical, so each place has one string", () => {
    const bad = ["", "42", RID.slice(1), `${RID}A`, `${RID.slice(0, 21)}x`, `${RID.slice(0, 21)}:`, RID.replace("A", "+"), 42, null];
    for (const recordId of bad) {
      expect(() => recordPayloadAad(7, recordId as string)).toThrow(/record id/);
      expect(() => dockeyAad(7, recordId as string, 0)).toThrow(/record id/);
    }
    for (const groupId of [0, -1, 1.5, "7"]) expect(() => recordGrantContext(groupId as number, RID)).toThrow(/group id/);
    expect(() => dockeyAad(7, RID, -1)).toThrow(/epoch/);
  });
});

describe("record keys under an epoch key (dockeys) and payloads", () => {
  it("round-trip; the DEK opens non-extractable unless asked; Unicode payloads kept as typed", async () => {
    const epochKey = await generateSymmetricKey();
    const dek = await generateRecordKey();
    const dockey = await wrapRecordKey(epochKey, dek, { ...place, epoch: 2 });
    const opened = await unwrapRecordKey(epochKey, dockey, { ...place, epoch: 2 });
    expect(opened.extractable).toBe(false);
    expect(await raw(await unwrapRecordKey(epochKey, dockey, { ...place, epoch: 2 }, { extractable: true }))).toEqual(await raw(dek));
    for (const text of ["Grüezi 🔐 ß", "Gru\u0308ezi 🔐 ß", ""]) {
      const sealed = await sealRecordPayload(dek, place, utf8Encode(text));
      expect(utf8Decode(await openRecordPayload(opened, sealed, place))).toBe(text);
    }
  });

  it("refuse being moved to another group, record or epoch, or opened with another key", async () => {
    const [epochKey, other] = await Promise.all([generateSymmetricKey(), generateSymmetricKey()]);
    const dek = await generateRecordKey();
    const dockey = await wrapRecordKey(epochKey, dek, { ...place, epoch: 2 });
    const payload = await sealRecordPayload(dek, place, utf8Encode("x"));
    const otherRecord = generateRecordId();
    for (const moved of [{ ...place, epoch: 1 }, { ...place, epoch: 3 }, { ...place, groupId: 8, epoch: 2 }, { ...place, recordId: otherRecord, epoch: 2 }]) {
      await expectRefusal(unwrapRecordKey(epochKey, dockey, moved), "decrypt_failed");
    }
    await expectRefusal(unwrapRecordKey(other, dockey, { ...place, epoch: 2 }), "decrypt_failed");
    for (const moved of [{ ...place, groupId: 8 }, { ...place, recordId: otherRecord }]) await expectRefusal(openRecordPayload(dek, payload, moved), "decrypt_failed");
    await expectRefusal(openRecordPayload(await generateRecordKey(), payload, place), "decrypt_failed");
    // A payload is not a dockey, nor the reverse (other associated data).
    await expectRefusal(unwrapRecordKey(dek, payload, { ...place, epoch: 0 }), "decrypt_failed");
    await expectRefusal(openRecordPayload(epochKey, dockey, place), "decrypt_failed");
  });

  it("refuse a dockey that holds anything but a 32-byte key, what is not an aead envelope, a bad place", async () => {
    const epochKey = await generateSymmetricKey();
    const short = serializeEnvelope(await encrypt(epochKey, new Uint8Array(16), { aad: dockeyAad(GROUP_ID, RID, 0) }));
    await expectRefusal(unwrapRecordKey(epochKey, short, { ...place, epoch: 0 }), "invalid_payload");
    const sealed = serializeEnvelope(await sealFor((await generateAccountKeys()).encrypt.publicKey, new Uint8Array(32), { context: "dek:7:x" }));
    await expectRefusal(unwrapRecordKey(epochKey, sealed, { ...place, epoch: 0 }), "wrong_kind");
    await expectRefusal(unwrapRecordKey(epochKey, short, undefined as never), "invalid_input");
    await expectRefusal(wrapRecordKey(epochKey, await generateRecordKey(), { ...place, recordId: "x" } as never), "invalid_input");
    await expectRefusal(sealRecordPayload(await generateRecordKey(), { groupId: 0, recordId: RID }, new Uint8Array(1)), "invalid_input");
  });

  it("every change to a dockey or a payload envelope is refused", { timeout: 120_000 }, async () => {
    const epochKey = await generateSymmetricKey();
    const dek = await generateRecordKey();
    const subjects = [
      { what: "dockey", envelope: await wrapRecordKey(epochKey, dek, { ...place, epoch: 1 }), open: (e: string) => unwrapRecordKey(epochKey, e, { ...place, epoch: 1 }) },
      { what: "payload", envelope: await sealRecordPayload(dek, place, utf8Encode("Grüezi 🔐 ß")), open: (e: string) => openRecordPayload(dek, e, place) },
    ];
    for (const { what, envelope, open } of subjects) {
      await open(envelope);
      let count = 0;
      for (const mutation of [...mutations(parseEnvelope(envelope, "aead")), ...nonCanonicalTexts(parseEnvelope(envelope, "aead"))]) {
        const text = typeof mutation.value === "string" ? mutation.value : JSON.stringify(mutation.value ?? null);
        await expectRefusal(open(text)).catch((failure: Error) => {
          throw new Error(`${what}: ${mutation.label}: ${failure.message}`);
        });
        count++;
      }
      expect(count).toBeGreaterThan(100);
    }
  });
});

/** A grant signed by `sealer` for a DEK of the caller's choosing (what a forger or a malicious member makes). */
async function forgedGrant(dek: Key, recipient: IdentityKeys, sealer: IdentityKeys, recordId = RID, context = recordGrantContext(GROUP_ID, recordId)): Promise<SignedSealedKey> {
  const sealed = serializeEnvelope(await sealFor(recipient.keys.encrypt.publicKey, await exportSymmetricKey(dek), { context }));
  const record = {
    type: "record-grant", v: 2, groupId: GROUP_ID, recordId, recipientUserId: recipient.userId, recipientKeyId: recipient.keyId, sealedDigest: await digest(sealed), sealer: sealer.userId, sealerKeyId: sealer.keyId,
  } as const;
  return { sealed, signature: await signRecordV2(sealer.keys.sign.privateKey, record), sealer: sealer.userId, sealerKeyId: sealer.keyId };
}

describe("grants of a record key to explicit grantees", () => {
  it("a grantee (member or not) opens the DEK a member granted; not extractable unless asked", async () => {
    const { log, keysOf, bob, dave, identities } = await groupSetting();
    const dek = await generateRecordKey();
    const verified = await log();
    const grant = await grantRecordKey(dek, place, verified, identities.get(4)!, bob);
    const opened = await openRecordGrant(grant, place, verified, dave, keysOf);
    expect(opened.extractable).toBe(false);
    expect(await raw(await openRecordGrant(grant, place, verified, dave, keysOf, { extractable: true }))).toEqual(await raw(dek));
    const payload = await sealRecordPayload(dek, place, utf8Encode("für Dave"));
    expect(utf8Decode(await openRecordPayload(opened, payload, place))).toBe("für Dave");
  });

  it("refuses a grant moved to another record, group or grantee, another envelope, or from someone who was never a member", async () => {
    const { log, keysOf, alice, bob, dave, mallory, identities } = await groupSetting();
    const dek = await generateRecordKey();
    const verified = await log();
    const grant = await grantRecordKey(dek, place, verified, identities.get(4)!, alice);
    await expectRefusal(openRecordGrant(grant, { ...place, recordId: generateRecordId() }, verified, dave, keysOf), "bad_signature");
    await expectRefusal(openRecordGrant(grant, place, verified, bob, keysOf), "bad_signature");
    await expectRefusal(openRecordGrant(grant, { ...place, groupId: 8 }, verified, dave, keysOf), "invalid_input");
    const other = serializeEnvelope(await sealFor(dave.keys.encrypt.publicKey, await exportSymmetricKey(dek), { context: recordGrantContext(GROUP_ID, RID) }));
    await expectRefusal(openRecordGrant({ ...grant, sealed: other }, place, verified, dave, keysOf), "bad_signature");
    // Mallory never was a member: she may not grant, and her signed grant is refused.
    await expectRefusal(grantRecordKey(dek, place, verified, identities.get(4)!, mallory), "not_permitted");
    await expectRefusal(openRecordGrant(await forgedGrant(await generateRecordKey(), dave, mallory), place, verified, dave, keysOf), "not_permitted");
    // The server claiming a member sealed it, with a key of its own: no verified key.
    await expectRefusal(openRecordGrant({ ...grant, sealerKeyId: mallory.keyId }, place, verified, dave, keysOf), "untrusted_key");
    // Another group's log does not vouch for this group's members.
    const elsewhere = membershipContainer("group", 8);
    const otherLog = await verifyLog(elsewhere, [await createLog(elsewhere, alice, T0)], keysOf);
    await expectRefusal(openRecordGrant(grant, place, otherLog, dave, keysOf), "invalid_input");
    // Sealed under another context (a group key copy's), signed as a grant: it does not open.
    const asCopy = await forgedGrant(dek, dave, alice, RID, "group-key:7:0");
    await expectRefusal(openRecordGrant(asCopy, place, verified, dave, keysOf), "decrypt_failed");
    expect(await raw(await openRecordGrant(await forgedGrant(dek, dave, alice), place, verified, dave, keysOf, { extractable: true }))).toEqual(await raw(dek));
  });

  it("every field of a stored grant changed is refused", async () => {
    const { log, keysOf, alice, dave, identities } = await groupSetting();
    const verified = await log();
    const grant = await grantRecordKey(await generateRecordKey(), place, verified, identities.get(4)!, alice);
    // Sealer 2 is a member too, but the key id named is Alice's.
    const special: Record<string, CryptoErrorCode[]> = { "sealer + 1": ["untrusted_key"], "sealerKeyId bit flipped": ["untrusted_key"] };
    expect(await refuseEveryMutation(grant, (value) => openRecordGrant(value, place, verified, dave, keysOf), (label) => special[label])).toBeGreaterThan(8);
  });

  it("a grant by someone removed since keeps verifying (they held the DEK), and a removed member cannot open a DEK of a later epoch", async () => {
    const { log, keysOf, alice, carol, dave, change, identities, key } = await groupSetting();
    const dek = await generateRecordKey();
    const grant = await grantRecordKey(dek, place, await log(), identities.get(4)!, carol);
    await change("remove", carol);
    const after = await change("rekey", null);
    expect(await raw(await openRecordGrant(grant, place, after, dave, keysOf, { extractable: true }))).toEqual(await raw(dek));
    const key1 = await generateSymmetricKey();
    const later = await generateRecordKey();
    const dockey = await wrapRecordKey(key1, later, { ...place, epoch: 1 });
    for (const epoch of [0, 1]) await expectRefusal(unwrapRecordKey(key, dockey, { ...place, epoch }), "decrypt_failed");
    // Nor a grant of it made for someone else.
    const forDave = await grantRecordKey(later, place, after, identities.get(4)!, alice);
    await expectRefusal(openRecordGrant(forDave, place, after, carol, keysOf), "bad_signature");
  });
});
