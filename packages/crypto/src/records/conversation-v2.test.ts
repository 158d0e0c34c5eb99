import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey, importSymmetricKey } from "../aead";
import { generateAccountKeys } from "../account-keys";
import { serializeEnvelope } from "../envelope";
import type { CryptoErrorCode } from "../errors";
import type { Key } from "../primitives";
import { signRecordV2 } from "../signatures";
import { sealFor } from "../seal";
import { expectRefusal } from "../test-support";
import { type ConversationRecord, type SignedSealedKey, commitKey, createConversationRecord, digest, openSignedConversationKey, sealSignedConversationKey, verifyConversationRecord } from "./conversation-v2";
import { conversationKeyContext } from "./conversation-key";
import { verifyIdentity } from "./identity-chain";
import { type IdentityKeys, type VerifiedIdentity, identityKeys, keyLookup } from "./identity-keys";
import { type SignedMembershipEntry, appendToLog, createLog, membershipContainer, verifyLog } from "./membership-log";
import { T0, World, refuseEveryMutation, replaced } from "./v2-test-support";

const ref = (me: IdentityKeys) => ({ userId: me.userId, keyId: me.keyId });

/**
 * Conversation 42: Alice (1, the root) created it and added Bob (2) and Carol (3); Mallory (4) is
 * a user of the instance but not a participant. Alice signed the record and sealed every copy.
 */
async function setting() {
  const world = await World.create();
  for (const user of [2, 3, 4]) await world.invite(1, user);
  const identities = new Map<number, VerifiedIdentity>();
  for (const user of [1, 2, 3, 4]) identities.set(user, await verifyIdentity(world.chain(user), world.trust));
  const keysOf = keyLookup([...identities.values()]);
  const [alice, bob, carol, mallory] = await Promise.all([1, 2, 3, 4].map((user) => world.me(user)));
  const container = membershipContainer("conversation", 42);
  const entries: SignedMembershipEntry[] = [await createLog(container, alice!, T0)];
  for (const who of [bob!, carol!]) {
    entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: "add", subject: ref(who), at: T0 }, alice!));
  }
  const log = await verifyLog(container, entries, keysOf);
  const key = await generateSymmetricKey();
  const signed = await createConversationRecord(key, [ref(carol!), ref(alice!), ref(bob!)], log, alice!);
  const record = await verifyConversationRecord(signed, log, keysOf);
  const copy = (to: number, sealer = alice!, conversation: ConversationRecord = record, k = key) => sealSignedConversationKey(k, conversation, identities.get(to)!, sealer);
  return { world, keysOf, alice: alice!, bob: bob!, carol: carol!, mallory: mallory!, container, entries, log, key, signed, record, copy, identities };
}

const raw = async (key: Key) => Array.from(await exportSymmetricKey(key));

describe("key commitments", () => {
  it("commit to the key, the conversation and the epoch; the raw bytes give the same", async () => {
    const key = await generateSymmetricKey();
    const place = { conversationId: 42, epoch: 0 };
    const commitment = await commitKey(key, place);
    expect(commitment).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await commitKey(await exportSymmetricKey(key), place)).toBe(commitment);
    for (const other of [await commitKey(key, { conversationId: 43, epoch: 0 }), await commitKey(key, { conversationId: 42, epoch: 1 }), await commitKey(await generateSymmetricKey(), place)]) {
      expect(other).not.toBe(commitment);
    }
    const locked = await crypto.subtle.importKey("raw", await exportSymmetricKey(key), { name: "AES-GCM" }, false, ["encrypt"]);
    await expectRefusal(commitKey(locked, place), "invalid_key");
    await expectRefusal(commitKey(new Uint8Array(31), place), "invalid_key");
    await expectRefusal(commitKey(key, { conversationId: 42 } as never), "invalid_input");
  });
});

describe("the signed conversation record", () => {
  it("names the log's members with their keys, sorted, the commitment and the head", async () => {
    const { record, alice, bob, carol, log, key } = await setting();
    expect(record.participants).toEqual([ref(alice), ref(bob), ref(carol)]);
    expect(record).toMatchObject({ conversationId: 42, epoch: 0, author: 1, authorKeyId: alice.keyId, logHead: log.head, keyCommitment: await commitKey(key, { conversationId: 42, epoch: 0 }) });
  });

  it("every field changed is refused", async () => {
    const { signed, log, keysOf } = await setting();
    const special: Record<string, CryptoErrorCode[]> = { "record.author + 1": ["untrusted_key", "bad_signature"], "record.authorKeyId bit flipped": ["untrusted_key"] };
    // A participant's id changed may also unsort the list: a shape error.
    const codes = (label: string) => special[label] ?? (/^record\.participants\.\d\.userId \+ 1$/.test(label) ? ["bad_signature", "malformed_record"] : undefined);
    expect(await refuseEveryMutation(signed, (value) => verifyConversationRecord(value, log, keysOf), codes)).toBeGreaterThan(40);
  });

  it("must agree with the log state it names: members (no ghost), epoch, conversation, an admin author, a head of this log", async () => {
    const { alice, bob, mallory, log, key, keysOf, container, entries, signed } = await setting();
    const forge = async (changes: Partial<ConversationRecord>, author = alice) => {
      const record = { ...signed.record, ...changes };
      return { record, signature: await signRecordV2(author.keys.sign.privateKey, record) };
    };
    const ghost = await forge({ participants: [...signed.record.participants, ref(mallory)] });
    await expectRefusal(verifyConversationRecord(ghost, log, keysOf), "bad_chain");
    await expectRefusal(verifyConversationRecord(await forge({ epoch: 1 }), log, keysOf), "bad_chain");
    await expectRefusal(verifyConversationRecord(await forge({ conversationId: 43 }), log, keysOf), "bad_chain");
    await expectRefusal(verifyConversationRecord(await forge({ author: 2, authorKeyId: bob.keyId }, bob), log, keysOf), "not_permitted");
    await expectRefusal(verifyConversationRecord(await forge({ logHead: { seq: 1, hash: log.head.hash } }), log, keysOf), "log_fork");
    await expectRefusal(verifyConversationRecord(await forge({ logHead: { seq: 7, hash: log.head.hash } }), log, keysOf), "log_fork");
    // A record made for an earlier head is checked against that head's state.
    const early = await verifyLog(container, entries.slice(0, 2), keysOf);
    const before = await createConversationRecord(key, early.members, early, alice);
    expect((await verifyConversationRecord(before, log, keysOf)).participants).toHaveLength(2);
  });

  it("is made only by an admin, for the log's members, with no rekey pending", async () => {
    const { alice, bob, carol, mallory, log, key, keysOf, container, entries } = await setting();
    await expectRefusal(createConversationRecord(key, [ref(alice), ref(bob)], log, alice), "invalid_input");
    await expectRefusal(createConversationRecord(key, [ref(alice), ref(bob), ref(carol), ref(mallory)], log, alice), "invalid_input");
    await expectRefusal(createConversationRecord(key, log.members, log, bob), "not_permitted");
    const removed = [...entries, await appendToLog(log, { action: "remove", subject: ref(carol), at: T0 }, alice)];
    const pending = await verifyLog(container, removed, keysOf);
    await expectRefusal(createConversationRecord(key, pending.members, pending, alice), "invalid_input");
    const rekeyed = await verifyLog(container, [...removed, await appendToLog(pending, { action: "rekey", subject: null, at: T0 }, alice)], keysOf);
    const next = await createConversationRecord(await generateSymmetricKey(), rekeyed.members, rekeyed, alice);
    expect((await verifyConversationRecord(next, rekeyed, keysOf)).epoch).toBe(1);
  });
});

describe("signed copies of the conversation key", () => {
  it("each participant opens the committed key from the copy sealed and signed for them", async () => {
    const { record, key, copy, keysOf, alice, bob, carol } = await setting();
    for (const me of [alice, bob, carol]) {
      const opened = await openSignedConversationKey(await copy(me.userId), record, me, keysOf);
      expect(await raw(opened)).toEqual(await raw(key));
    }
    // Another participant may seal too (the commitment says which key it must be).
    expect(await raw(await openSignedConversationKey(await copy(2, carol), record, bob, keysOf))).toEqual(await raw(key));
  });

  it("refuses a copy moved to another recipient, conversation or epoch, or another envelope under the signature", async () => {
    const { record, copy, keysOf, bob, carol, key } = await setting();
    const forBob = await copy(2);
    await expectRefusal(openSignedConversationKey(forBob, record, carol, keysOf), "bad_signature");
    for (const moved of [{ ...record, conversationId: 43 }, { ...record, epoch: 1 }]) await expectRefusal(openSignedConversationKey(forBob, moved, bob, keysOf), "bad_signature");
    const other = serializeEnvelope(await sealFor(bob.keys.encrypt.publicKey, await exportSymmetricKey(key), { context: conversationKeyContext(42, 0) }));
    await expectRefusal(openSignedConversationKey({ ...forBob, sealed: other }, record, bob, keysOf), "bad_signature");
  });

  it("refuses a key injected by someone who is not a participant, or by the server", async () => {
    const { record, keysOf, bob, mallory, identities } = await setting();
    const injected = await generateSymmetricKey();
    // Mallory seals a key of hers for Bob and signs the copy with her real identity.
    const sealed = serializeEnvelope(await sealFor(bob.keys.encrypt.publicKey, await exportSymmetricKey(injected), { context: conversationKeyContext(42, 0) }));
    const signature = await signRecordV2(mallory.keys.sign.privateKey, {
      type: "sealed-key", v: 2, conversationId: 42, epoch: 0, recipientUserId: 2, recipientKeyId: bob.keyId, sealedDigest: await digest(sealed), sealer: 4, sealerKeyId: mallory.keyId,
    } as never);
    await expectRefusal(openSignedConversationKey({ sealed, signature, sealer: 4, sealerKeyId: mallory.keyId }, record, bob, keysOf), "not_permitted");
    // The server claims Alice sealed it, with a key of its own: no verified key (untrusted_key), or a bad signature.
    const stranger = await generateAccountKeys();
    await expectRefusal(openSignedConversationKey({ sealed, signature, sealer: 1, sealerKeyId: (await identityKeys(1, stranger)).keyId }, record, bob, keysOf), "untrusted_key");
    await expectRefusal(openSignedConversationKey({ sealed, signature, sealer: 1, sealerKeyId: identities.get(1)!.keyId }, record, bob, keysOf), "bad_signature");
  });

  it("refuses another key from a participant (bad_commitment), and a copy for a key the record does not name", async () => {
    const { record, copy, keysOf, bob, carol, world, key } = await setting();
    // Carol seals a different key for Bob: signed, opens, but it is not the committed one.
    const sealed = serializeEnvelope(await sealFor(bob.keys.encrypt.publicKey, await exportSymmetricKey(await generateSymmetricKey()), { context: conversationKeyContext(42, 0) }));
    const signature = await signRecordV2(carol.keys.sign.privateKey, {
      type: "sealed-key", v: 2, conversationId: 42, epoch: 0, recipientUserId: 2, recipientKeyId: bob.keyId, sealedDigest: await digest(sealed), sealer: 3, sealerKeyId: carol.keyId,
    } as never);
    await expectRefusal(openSignedConversationKey({ sealed, signature, sealer: 3, sealerKeyId: carol.keyId }, record, bob, keysOf), "bad_commitment");
    await expectRefusal(sealSignedConversationKey(await generateSymmetricKey(), record, (await verifyIdentity(world.chain(2), world.trust)), carol), "bad_commitment");
    // Bob rotated his key: the record names the old one, so a copy for the new one is refused.
    await world.rotate(2);
    const newBob = await world.me(2);
    const rotated = await verifyIdentity(world.chain(2), world.trust);
    await expectRefusal(openSignedConversationKey(await copy(2), record, newBob, keyLookup([rotated])), "not_permitted");
    await expectRefusal(sealSignedConversationKey(key, record, rotated, carol), "invalid_input");
  });

  it("every field of a stored copy changed is refused", async () => {
    const { record, copy, keysOf, bob } = await setting();
    const forBob: SignedSealedKey = await copy(2);
    const special: Record<string, CryptoErrorCode[]> = { "sealer + 1": ["bad_signature", "untrusted_key"], "sealerKeyId bit flipped": ["untrusted_key"] };
    await refuseEveryMutation(forBob, (value) => openSignedConversationKey(value, record, bob, keysOf), (label) => special[label]);
    await expectRefusal(openSignedConversationKey(replaced(forBob, ["sealer"], 4), record, bob, keysOf), "not_permitted");
  });

  it("opens to an extractable key (to seal for a newcomer) and refuses a record given in the wrong shape", async () => {
    const { record, copy, keysOf, bob } = await setting();
    const opened = await openSignedConversationKey(await copy(2), record, bob, keysOf);
    expect(await importSymmetricKey(await exportSymmetricKey(opened))).toBeTruthy();
    await expectRefusal(openSignedConversationKey(await copy(2), { ...record, participants: [] }, bob, keysOf), "invalid_input");
  });
});
