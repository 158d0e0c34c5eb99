import { describe, expect, it } from "vitest";
import { decrypt, encrypt, generateSymmetricKey } from "./aead";
import { generateAccountKeys } from "./account-keys";
import { utf8Encode } from "./bytes";
import { type Envelope, serializeEnvelope } from "./envelope";
import { derivePickupKeys, pickupParams, unwrapPickupKey, wrapPickupKey } from "./pickup";
import { openSealed, sealFor } from "./seal";
import { unwrapAccountKeys, wrapAccountKeys } from "./secure-code-wrap";
import { sign, signRecord, verify, verifyRecord } from "./signatures";
import { expectRefusal, mutations, nonCanonicalTexts } from "./test-support";

// For every envelope kind: each bit of each field flipped, fields truncated, extended, retyped,
// removed or added, other versions, kinds and algorithms, and non-canonical texts. Every one
// must be refused with a CryptoError; none may yield plaintext or a passing signature.

interface Subject {
  kind: string;
  envelope: Envelope;
  open: (envelope: unknown) => Promise<unknown>;
  /** Each opening of a secure-code wrap runs Argon2id, so its bit flips are sampled. */
  everyBit: boolean;
}

async function subjects(): Promise<Subject[]> {
  const keys = await generateAccountKeys();
  const symmetric = await generateSymmetricKey();
  const record = { type: "keypair", name: "Grüezi 🔐 ß" };
  const data = utf8Encode("Grüezi 🔐 ß");
  const code = "Grüezi 🔐 ß 42";
  const pickupSecrets = { code: "ABABA12121", securityCode: "123456", linkSecret: "BwcHBwcHBwcHBwcHBwcHBw" };
  const pickup = await wrapPickupKey(symmetric, pickupSecrets, { memoryKiB: 1024, iterations: 1, parallelism: 1 });
  // Derived once from the untouched envelope's parameters: an envelope whose parameters were
  // changed must then be refused (the guest derives from what the lookup answered).
  const pickupKeys = await derivePickupKeys(pickupSecrets, pickupParams(pickup.envelope));
  return [
    {
      kind: "pickup-wrap",
      envelope: pickup.envelope,
      open: (e) => unwrapPickupKey(pickupKeys, e as never),
      everyBit: true,
    },
    {
      kind: "secure-code-wrap",
      envelope: await wrapAccountKeys(keys, code, { memoryKiB: 1024, iterations: 1, parallelism: 1 }),
      open: (e) => unwrapAccountKeys(e as never, code),
      everyBit: false,
    },
    {
      kind: "sealed",
      envelope: await sealFor(keys.encrypt.publicKey, crypto.getRandomValues(new Uint8Array(32)), { context: "group-key:g1:1" }),
      open: (e) => openSealed(e as never, keys.encrypt, { context: "group-key:g1:1" }),
      everyBit: true,
    },
    {
      kind: "aead",
      envelope: await encrypt(symmetric, data, { aad: "mote:g1:m1:1" }),
      open: (e) => decrypt(symmetric, e as never, { aad: "mote:g1:m1:1" }),
      everyBit: true,
    },
    { kind: "signature", envelope: await sign(keys.sign.privateKey, data), open: (e) => verify(keys.sign.publicKey, data, e as never), everyBit: true },
    {
      kind: "record-signature",
      envelope: await signRecord(keys.sign.privateKey, record),
      open: (e) => verifyRecord(keys.sign.publicKey, record, e as never),
      everyBit: true,
    },
  ];
}

const all = await subjects();

describe.each(all)("tampering with a $kind envelope", ({ kind, envelope, open, everyBit }) => {
  it("the untouched envelope opens, as object and as text", async () => {
    await open(envelope);
    await open(serializeEnvelope(envelope));
  });

  it("every mutation is refused", { timeout: 120_000 }, async () => {
    let count = 0;
    for (const mutation of mutations(envelope, { everyBit })) {
      const error = await expectRefusal(open(mutation.value), ...(mutation.codes ?? [])).catch((failure: Error) => {
        throw new Error(`${kind}: ${mutation.label}: ${failure.message}`);
      });
      expect(error.message).not.toContain("Grüezi");
      count++;
    }
    expect(count).toBeGreaterThan(100);
  });

  it("non-canonical texts of the envelope are refused", async () => {
    for (const mutation of nonCanonicalTexts(envelope)) {
      await expectRefusal(open(mutation.value), ...(mutation.codes ?? []));
    }
  });

  it("envelopes of the other kinds are refused with wrong_kind", async () => {
    for (const other of all.filter((s) => s.kind !== kind)) {
      await expectRefusal(open(other.envelope), "wrong_kind");
    }
  });
});
