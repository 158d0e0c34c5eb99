import { afterEach, describe, expect, it, vi } from "vitest";
import { generateAccountKeys, keyPairFromSeed } from "./account-keys";
import { hexEncode, utf8Encode } from "./bytes";
import { aesGcmDecrypt, aesGcmEncrypt, argon2idRaw, hkdfSha256, hmacSha256, importAesGcmKey, randomBytes, sha256, sha384, sha512, x25519 } from "./primitives";
import { ed25519Sign, ed25519Verify } from "./signatures";
import { hex } from "./test-support";
import vectors from "./vectors.json";

// The building blocks against published vectors: if WebCrypto or hash-wasm ever behaved
// differently (another engine, another version), these fail before any protocol test does.
const p = vectors.primitives;

describe("primitives against published vectors", () => {
  it("SHA-256, SHA-384 and SHA-512 (FIPS 180-2)", async () => {
    expect(hexEncode(await sha256(utf8Encode(p.sha.input.text)))).toBe(p.sha.sha256);
    expect(hexEncode(await sha384(utf8Encode(p.sha.input.text)))).toBe(p.sha.sha384);
    expect(hexEncode(await sha512(utf8Encode(p.sha.input.text)))).toBe(p.sha.sha512);
  });

  it("HMAC-SHA-256 (RFC 4231 test case 2)", async () => {
    expect(hexEncode(await hmacSha256(utf8Encode(p.hmacSha256.key.text), utf8Encode(p.hmacSha256.data.text)))).toBe(p.hmacSha256.mac);
  });

  it("HKDF-SHA-256 (RFC 5869 A.1)", async () => {
    const okm = await hkdfSha256(hex(p.hkdf.ikm), hex(p.hkdf.salt), hex(p.hkdf.info), p.hkdf.length);
    expect(hexEncode(okm)).toBe(p.hkdf.okm);
  });

  it.each(p.aesGcm)("AES-256-GCM ($source)", async (v) => {
    const key = await importAesGcmKey(hex(v.key));
    expect(hexEncode(await aesGcmEncrypt(key, hex(v.nonce), hex(v.plaintext), hex(v.aad)))).toBe(v.ciphertextAndTag);
    expect(hexEncode(await aesGcmDecrypt(key, hex(v.nonce), hex(v.ciphertextAndTag), hex(v.aad)))).toBe(v.plaintext);
  });

  it("X25519 (RFC 7748 6.1), seeds imported through PKCS#8", async () => {
    const alice = await keyPairFromSeed(hex(p.x25519.alicePrivate), "X25519");
    const bob = await keyPairFromSeed(hex(p.x25519.bobPrivate), "X25519");
    expect(hexEncode(new Uint8Array(await crypto.subtle.exportKey("raw", alice.publicKey)))).toBe(p.x25519.alicePublic);
    expect(hexEncode(new Uint8Array(await crypto.subtle.exportKey("raw", bob.publicKey)))).toBe(p.x25519.bobPublic);
    expect(hexEncode(await x25519(alice.privateKey, bob.publicKey))).toBe(p.x25519.shared);
    expect(hexEncode(await x25519(bob.privateKey, alice.publicKey))).toBe(p.x25519.shared);
  });

  it("Ed25519 (RFC 8032 7.1 test 1)", async () => {
    const pair = await keyPairFromSeed(hex(p.ed25519.secret), "Ed25519");
    expect(hexEncode(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)))).toBe(p.ed25519.public);
    expect(hexEncode(await ed25519Sign(pair.privateKey, hex(p.ed25519.message)))).toBe(p.ed25519.signature);
    await expect(ed25519Verify(pair.publicKey, hex(p.ed25519.message), hex(p.ed25519.signature))).resolves.toBeUndefined();
  });

  it.each(p.argon2id)("Argon2id m=$memoryKiB t=$iterations p=$parallelism ($source)", async (v) => {
    const out = await argon2idRaw(utf8Encode(v.password.text), utf8Encode(v.salt.text), v, 32);
    expect(hexEncode(out)).toBe(v.output);
  });

  it("X25519 refuses low-order public keys instead of agreeing on zero", async () => {
    const alice = await keyPairFromSeed(hex(p.x25519.alicePrivate), "X25519");
    for (const point of [new Uint8Array(32), Uint8Array.of(1, ...new Uint8Array(31))]) {
      const low = await crypto.subtle.importKey("raw", point, { name: "X25519" }, true, []);
      await expect(x25519(alice.privateKey, low)).rejects.toMatchObject({ code: "invalid_key" });
    }
  });
});

describe("a runtime without WebCrypto", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("fails with crypto_unavailable (the key popup's NCRP)", async () => {
    vi.stubGlobal("crypto", {});
    await expect(generateAccountKeys()).rejects.toMatchObject({ code: "crypto_unavailable" });
    expect(() => randomBytes(12)).toThrow(expect.objectContaining({ code: "crypto_unavailable" }));
    await expect(sha256(new Uint8Array(0))).rejects.toMatchObject({ code: "crypto_unavailable" });
  });

  it("fails with crypto_unavailable when X25519 or Ed25519 is missing", async () => {
    const real = globalThis.crypto;
    const subtle = Object.create(real.subtle, {
      generateKey: { value: () => Promise.reject(new DOMException("Unrecognized name", "NotSupportedError")) },
    });
    vi.stubGlobal("crypto", { subtle, getRandomValues: real.getRandomValues.bind(real) });
    await expect(generateAccountKeys()).rejects.toMatchObject({ code: "crypto_unavailable" });
  });
});
