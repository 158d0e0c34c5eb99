import { describe, expect, it } from "vitest";
import {
  accountPublicKeys,
  exportPrivateSeed,
  exportPublicKey,
  generateAccountKeys,
  importAccountPublicKeys,
  importEncryptionPublicKey,
  importPrivateSeed,
  importSigningPublicKey,
  lockAccountKeys,
} from "./account-keys";
import { base64urlEncode } from "./bytes";
import { CryptoError } from "./errors";
import { x25519 } from "./primitives";

describe("account keys", () => {
  it("generates an X25519 pair for encryption and an Ed25519 pair for signatures", async () => {
    const keys = await generateAccountKeys();
    expect(keys.encrypt.privateKey.algorithm.name).toBe("X25519");
    expect(keys.encrypt.privateKey.usages).toEqual(["deriveBits"]);
    expect(keys.sign.privateKey.algorithm.name).toBe("Ed25519");
    expect(keys.sign.privateKey.usages).toEqual(["sign"]);
    expect(keys.sign.publicKey.usages).toEqual(["verify"]);
    const other = await generateAccountKeys();
    expect(await accountPublicKeys(keys)).not.toEqual(await accountPublicKeys(other));
  });

  it("exports and imports public keys as raw base64url and as JWK", async () => {
    const keys = await generateAccountKeys();
    const raw = await exportPublicKey(keys.encrypt.publicKey);
    expect(raw).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const jwk = await exportPublicKey(keys.sign.publicKey, "jwk");
    expect(jwk).toEqual({ kty: "OKP", crv: "Ed25519", x: await exportPublicKey(keys.sign.publicKey) });

    const fromRaw = await importEncryptionPublicKey(raw);
    expect(await exportPublicKey(fromRaw)).toBe(raw);
    const fromJwk = await importSigningPublicKey(jwk);
    expect(await exportPublicKey(fromJwk)).toBe(jwk.x);

    const pub = await accountPublicKeys(keys);
    const imported = await importAccountPublicKeys(pub);
    expect(await exportPublicKey(imported.encrypt)).toBe(pub.encryptPublic);
    expect(await exportPublicKey(imported.sign)).toBe(pub.signPublic);
  });

  it("refuses malformed public keys, private JWKs and keys of the other curve", async () => {
    const keys = await generateAccountKeys();
    const raw = await exportPublicKey(keys.encrypt.publicKey);
    const privateJwk = await crypto.subtle.exportKey("jwk", keys.sign.privateKey);
    const bad: unknown[] = [
      "", raw.slice(1), `${raw}A`, `${raw}=`, base64urlEncode(new Uint8Array(33)), 42, null,
      { kty: "OKP", crv: "X25519" },
      { kty: "OKP", crv: "Ed25519", x: raw },
      { kty: "EC", crv: "X25519", x: raw },
      { kty: "OKP", crv: "X25519", x: raw, d: raw },
      { kty: "OKP", crv: "X25519", x: raw, kid: "1" },
    ];
    for (const input of bad) {
      await expect(importEncryptionPublicKey(input as string), JSON.stringify(input)).rejects.toBeInstanceOf(CryptoError);
    }
    await expect(importSigningPublicKey(privateJwk as never)).rejects.toMatchObject({ code: "invalid_key" });
    await expect(exportPublicKey(keys.sign.privateKey)).rejects.toMatchObject({ code: "invalid_key" });
  });

  it("private keys travel as 32-byte seeds and come back as the same key", async () => {
    const keys = await generateAccountKeys();
    const { seed, publicRaw } = await exportPrivateSeed(keys.encrypt.privateKey, "X25519");
    expect(seed).toHaveLength(32);
    expect(base64urlEncode(publicRaw)).toBe(await exportPublicKey(keys.encrypt.publicKey));
    const back = await importPrivateSeed(seed, "X25519");
    expect(back.publicRaw).toEqual(publicRaw);
    const peer = await generateAccountKeys();
    expect(await x25519(back.privateKey, peer.encrypt.publicKey)).toEqual(await x25519(keys.encrypt.privateKey, peer.encrypt.publicKey));
    await expect(exportPrivateSeed(keys.sign.privateKey, "X25519")).rejects.toMatchObject({ code: "invalid_key" });
    await expect(importPrivateSeed(new Uint8Array(31), "Ed25519")).rejects.toMatchObject({ code: "invalid_key" });
  });
});

describe("locked account keys (issue 11, item 8)", () => {
  it("keep the same key pairs, which sign, verify and agree as before, but cannot be exported", async () => {
    const keys = await generateAccountKeys();
    expect(keys.encrypt.privateKey.extractable).toBe(true);
    const locked = await lockAccountKeys(keys);
    expect(locked.encrypt.privateKey.extractable).toBe(false);
    expect(locked.sign.privateKey.extractable).toBe(false);
    expect(await accountPublicKeys(locked)).toEqual(await accountPublicKeys(keys));
    await expect(crypto.subtle.exportKey("jwk", locked.sign.privateKey)).rejects.toThrow();
    await expect(crypto.subtle.exportKey("pkcs8", locked.encrypt.privateKey)).rejects.toThrow();

    const message = new TextEncoder().encode("Grüezi");
    const signature = await crypto.subtle.sign("Ed25519", locked.sign.privateKey, message);
    expect(await crypto.subtle.verify("Ed25519", keys.sign.publicKey, signature, message)).toBe(true);
    const other = await generateAccountKeys();
    const mine = await x25519(locked.encrypt.privateKey, other.encrypt.publicKey);
    const theirs = await x25519(other.encrypt.privateKey, keys.encrypt.publicKey);
    expect(base64urlEncode(mine)).toBe(base64urlEncode(theirs));

    // Locking twice changes nothing; a wrong pair is refused.
    expect(await lockAccountKeys(locked)).toEqual(locked);
    await expect(lockAccountKeys({ encrypt: keys.sign, sign: keys.encrypt })).rejects.toBeInstanceOf(CryptoError);
  });
});
