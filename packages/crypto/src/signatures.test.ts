import { describe, expect, it } from "vitest";
import { accountPublicKeys, generateAccountKeys } from "./account-keys";
import { base64urlEncode, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { ed25519Sign, sign, signRecord, signRecordV2, verify, verifyRecord, verifyRecordV2 } from "./signatures";
import { expectRefusal } from "./test-support";

describe("signatures", () => {
  it("sign/verify bytes; other data or another key is refused", async () => {
    const { sign: me } = await generateAccountKeys();
    const { sign: other } = await generateAccountKeys();
    const data = utf8Encode("Grüezi 🔐 ß");
    const sig = await sign(me.privateKey, data);
    expect(sig).toMatchObject({ v: 1, kind: "signature", alg: "ed25519" });
    await verify(me.publicKey, data, sig);
    await expectRefusal(verify(other.publicKey, data, sig), "bad_signature");
    await expectRefusal(verify(me.publicKey, utf8Encode("Grüezi 🔐 ß".normalize("NFD")), sig), "bad_signature");
    await expectRefusal(verify(me.publicKey, new Uint8Array(0), sig), "bad_signature");
    await expectRefusal(verify(me.privateKey, data, sig), "invalid_key");
    await expectRefusal(sign(me.publicKey, data), "invalid_key");
  });

  it("records are signed over canonical JSON: key order does not matter, values do", async () => {
    const keys = await generateAccountKeys();
    const record = { type: "keypair", ...(await accountPublicKeys(keys)), timestamp: 1700000000 };
    const sig = await signRecord(keys.sign.privateKey, record);
    const reordered = Object.fromEntries(Object.entries(record).reverse());
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(record));
    await verifyRecord(keys.sign.publicKey, JSON.parse(JSON.stringify(reordered)), sig);
    await expectRefusal(verifyRecord(keys.sign.publicKey, { ...record, timestamp: 1700000001 }, sig), "bad_signature");
    await expectRefusal(verifyRecord(keys.sign.publicKey, { ...record, extra: null }, sig), "bad_signature");
  });

  it("detects a server that swaps the public encryption key", async () => {
    const alice = await generateAccountKeys();
    const mallory = await generateAccountKeys();
    const published = { type: "keypair", ...(await accountPublicKeys(alice)) };
    const sig = await signRecord(alice.sign.privateKey, published);
    const swapped = { ...published, encryptPublic: (await accountPublicKeys(mallory)).encryptPublic };
    await expectRefusal(verifyRecord(alice.sign.publicKey, swapped, sig), "bad_signature");
  });

  it("keeps the two kinds apart: neither a signature envelope nor its bytes pass as the other", async () => {
    const { sign: me } = await generateAccountKeys();
    const record = { type: "backup", n: 1 };
    const recordSig = await signRecord(me.privateKey, record);
    const bytesSig = await sign(me.privateKey, utf8Encode(canonicalJson(record)));
    await expectRefusal(verifyRecord(me.publicKey, record, bytesSig as never), "wrong_kind");
    await expectRefusal(verify(me.publicKey, utf8Encode(canonicalJson(record)), recordSig as never), "wrong_kind");
    // Relabelled kinds: the domain prefixes still keep them apart.
    await expectRefusal(verifyRecord(me.publicKey, record, { ...bytesSig, kind: "record-signature" }), "bad_signature");
    await expectRefusal(verify(me.publicKey, utf8Encode(canonicalJson(record)), { ...recordSig, kind: "signature" }), "bad_signature");
    // And a plain Ed25519 signature over the canonical JSON is not a record signature.
    const plain = await ed25519Sign(me.privateKey, utf8Encode(canonicalJson(record)));
    await expectRefusal(verifyRecord(me.publicKey, record, { v: 1, kind: "record-signature", alg: "ed25519", sig: base64urlEncode(plain) }), "bad_signature");
  });

  it("refuses records that have no canonical JSON", async () => {
    const { sign: me } = await generateAccountKeys();
    await expectRefusal(signRecord(me.privateKey, { a: undefined }), "invalid_input");
    await expectRefusal(signRecord(me.privateKey, { when: new Date() }), "invalid_input");
  });

  it("v2 records have their own prefix: a v1 record signature never passes as v2, nor the other way", async () => {
    const { sign: me } = await generateAccountKeys();
    const record = { type: "identity", v: 2 as const, n: 1 };
    const v2 = await signRecordV2(me.privateKey, record);
    await verifyRecordV2(me.publicKey, record, v2);
    await expectRefusal(verifyRecord(me.publicKey, record, v2), "bad_signature");
    await expectRefusal(verifyRecordV2(me.publicKey, record, canonicalJson(await signRecord(me.privateKey, record))), "bad_signature");
    const changed = { ...record, n: 2 };
    await expectRefusal(verifyRecordV2(me.publicKey, changed, v2), "bad_signature");
    await expectRefusal(signRecordV2(me.privateKey, { type: "identity", v: 1 } as never), "invalid_input");
    await expectRefusal(signRecordV2(me.privateKey, { v: 2 } as never), "invalid_input");
  });
});
