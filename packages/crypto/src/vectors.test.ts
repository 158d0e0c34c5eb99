import { describe, expect, it } from "vitest";
import { decrypt, encryptWith, importSymmetricKey } from "./aead";
import { type AccountKeys, importSigningPublicKey, keyPairFromSeed } from "./account-keys";
import { base64urlEncode, hexEncode, utf8Decode, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { accountFingerprint, backupNameDigest, fingerprint } from "./digests";
import type { Key } from "./primitives";
import { crc24, derivePickupKeys, parsePickupFragment, pickupFragment, pickupLink, pickupLookup, pickupParams, unwrapPickupKey, wrapPickupKeyWith } from "./pickup";
import { openSealed, sealForWith } from "./seal";
import { unwrapAccountKeys, wrapAccountKeysWith } from "./secure-code-wrap";
import { sign, signRecord, verify, verifyRecord } from "./signatures";
import { expectRefusal, hex } from "./test-support";
import vectors from "./vectors.json";

// Protocol version 1 with fixed randomness. The expected values come from an independent
// implementation (scripts/make-vectors.mjs on node:crypto); a change that alters any output
// is a protocol change and must become version 2, not an edit of vectors.json.

async function accountKeys(): Promise<AccountKeys> {
  return {
    encrypt: await keyPairFromSeed(hex(vectors.seeds.accountX25519), "X25519"),
    sign: await keyPairFromSeed(hex(vectors.seeds.accountEd25519), "Ed25519"),
  };
}

async function rawPublic(key: Key): Promise<string> {
  return hexEncode(new Uint8Array(await crypto.subtle.exportKey("raw", key)));
}

describe("known answers, protocol version 1", () => {
  it("text inputs still hold the bytes they were made with (no editor normalised them)", () => {
    const texts = [
      ...vectors.secureCodeWrap.flatMap((v) => [v.secureCode, ...v.alsoOpensWith]),
      ...vectors.backupNameDigest.map((v) => v.name),
      vectors.signature.data,
    ];
    for (const t of texts) expect(hexEncode(utf8Encode(t.text))).toBe(t.utf8);
    // And the NFD vectors really are decomposed.
    expect(vectors.backupNameDigest[4]!.name.text).not.toBe(vectors.backupNameDigest[3]!.name.text);
  });

  it("seeds give the expected public keys", async () => {
    const keys = await accountKeys();
    expect(await rawPublic(keys.encrypt.publicKey)).toBe(vectors.publicKeys.accountX25519);
    expect(await rawPublic(keys.sign.publicKey)).toBe(vectors.publicKeys.accountEd25519);
  });

  it.each(vectors.secureCodeWrap)("secure-code wrap, m=$params.memoryKiB t=$params.iterations: $secureCode.text", async (v) => {
    const keys = await accountKeys();
    const anchor = "anchor" in v ? v.anchor : undefined;
    const envelope = await wrapAccountKeysWith(keys, v.secureCode.text, v.params, { salt: hex(v.salt), nonce: hex(v.nonce) }, { anchor });
    expect(canonicalJson(envelope)).toBe(v.envelope);
    // A wrap bound to an anchor opens only when the reader names it.
    if (anchor) await expectRefusal(unwrapAccountKeys(v.envelope, v.secureCode.text), "decrypt_failed");

    for (const code of [v.secureCode, ...v.alsoOpensWith]) {
      const opened = await unwrapAccountKeys(v.envelope, code.text, anchor ? [anchor] : []);
      expect(await rawPublic(opened.encrypt.publicKey)).toBe(vectors.publicKeys.accountX25519);
      // The unwrapped private keys are the seeded ones: same signature, same shared secret.
      const sig = await signRecord(opened.sign.privateKey, { n: 1 });
      expect(sig).toEqual(await signRecord(keys.sign.privateKey, { n: 1 }));
    }
    await expectRefusal(unwrapAccountKeys(v.envelope, `${v.secureCode.text}x`), "decrypt_failed");
  });

  it.each(vectors.sealed)("sealed for a recipient, context $context", async (v) => {
    const recipient = await keyPairFromSeed(hex(vectors.seeds.recipientX25519), "X25519");
    const ephemeral = await keyPairFromSeed(hex(vectors.seeds.ephemeralX25519), "X25519");
    const envelope = await sealForWith(recipient.publicKey, hex(v.plaintext), { context: v.context }, { ephemeral, nonce: hex(v.nonce) });
    expect(canonicalJson(envelope)).toBe(v.envelope);
    expect(hexEncode(await openSealed(v.envelope, recipient, { context: v.context }))).toBe(v.plaintext);
    await expectRefusal(openSealed(v.envelope, recipient, { context: `${v.context}x` }), "decrypt_failed");
  });

  it("a sealed Unicode payload comes back as the same text", async () => {
    const recipient = await keyPairFromSeed(hex(vectors.seeds.recipientX25519), "X25519");
    const v = vectors.sealed[1]!;
    expect(utf8Decode(await openSealed(v.envelope, recipient, { context: v.context }))).toBe("Grüezi 🔐 ß");
  });

  it.each(vectors.aead)("AEAD with aad '$aad'", async (v) => {
    const key = await importSymmetricKey(hex(v.key));
    const envelope = await encryptWith(key, hex(v.plaintext), { aad: v.aad }, hex(v.nonce));
    expect(canonicalJson(envelope)).toBe(v.envelope);
    expect(hexEncode(await decrypt(key, v.envelope, { aad: v.aad }))).toBe(v.plaintext);
    await expectRefusal(decrypt(key, v.envelope, { aad: `${v.aad}x` }), "decrypt_failed");
  });

  it("Ed25519 signature over bytes (deterministic)", async () => {
    const keys = await accountKeys();
    const data = utf8Encode(vectors.signature.data.text);
    expect(canonicalJson(await sign(keys.sign.privateKey, data))).toBe(vectors.signature.envelope);
    const pub = await importSigningPublicKey(base64urlEncode(hex(vectors.publicKeys.accountEd25519)));
    await verify(pub, data, vectors.signature.envelope);
  });

  it("record signature over canonical JSON with Unicode and nested keys", async () => {
    const keys = await accountKeys();
    const v = vectors.recordSignature;
    expect(canonicalJson(v.record)).toBe(v.canonical);
    expect(canonicalJson(await signRecord(keys.sign.privateKey, v.record))).toBe(v.envelope);
    await verifyRecord(keys.sign.publicKey, JSON.parse(v.canonical), v.envelope);
  });

  it.each(vectors.pickupLookup)("pickup lookup of $code on instance $instanceName", async (v) => {
    expect(await pickupLookup(v.code, v.instanceName)).toBe(v.lookup);
  });

  it.each(vectors.pickupWrap)("pickup wrap of $code, link secret $linkSecret, m=$params.memoryKiB", async (v) => {
    const secrets = { code: v.code, securityCode: v.securityCode, linkSecret: v.linkSecret };
    const conversationKey = await importSymmetricKey(hex(v.conversationKey));
    const wrapped = await wrapPickupKeyWith(conversationKey, secrets, v.params, { salt: hex(v.salt), nonce: hex(v.nonce) });
    expect(canonicalJson(wrapped.envelope)).toBe(v.envelope);
    expect(wrapped.auth).toBe(v.auth);
    expect(wrapped.verifier).toBe(v.verifier);
    expect(parsePickupFragment(`#${v.fragment}`)).toEqual({ code: v.code, linkSecret: v.linkSecret });

    const keys = await derivePickupKeys(secrets, pickupParams(v.envelope));
    expect(keys.auth).toBe(v.auth);
    const opened = await unwrapPickupKey(keys, v.envelope, { extractable: true });
    expect(hexEncode(new Uint8Array(await crypto.subtle.exportKey("raw", opened)))).toBe(v.conversationKey);
    const wrong = await derivePickupKeys({ ...secrets, securityCode: v.securityCode === "999999" ? "999998" : "999999" }, pickupParams(v.envelope));
    await expectRefusal(unwrapPickupKey(wrong, v.envelope), "decrypt_failed");
  });

  it.each(vectors.pickupLink)("pickup link (fragment version 2) of $code, link secret $linkSecret", (v) => {
    expect(crc24(`2${v.code}${v.linkSecret ?? ""}`)).toBe(v.crc24);
    expect(pickupFragment(v.code, v.linkSecret)).toBe(v.fragment);
    expect(pickupLink(v.appUrl, v.code, v.linkSecret)).toBe(v.link);
    expect(parsePickupFragment(v.link)).toEqual({ code: v.code, linkSecret: v.linkSecret });
  });

  it.each(vectors.backupNameDigest)("backup name digest of '$name.text'", async (v) => {
    expect(await backupNameDigest(v.name.text)).toBe(v.digest);
  });

  it("NFC and NFD names give the same backup digest", () => {
    expect(vectors.backupNameDigest[3]!.digest).toBe(vectors.backupNameDigest[4]!.digest);
  });

  it("fingerprints", async () => {
    const keys = await accountKeys();
    expect(await fingerprint(keys.encrypt.publicKey)).toBe(vectors.fingerprint.accountX25519);
    expect(await fingerprint(keys.sign.publicKey)).toBe(vectors.fingerprint.accountEd25519);
    expect(await accountFingerprint(vectors.fingerprint.account.publicKeys)).toBe(vectors.fingerprint.account.fingerprint);
  });
});
