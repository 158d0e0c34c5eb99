import { describe, expect, it } from "vitest";
import { accountPublicKeys, generateAccountKeys } from "./account-keys";
import { accountFingerprint, backupNameDigest, fingerprint } from "./digests";
import { expectRefusal } from "./test-support";

describe("digests", () => {
  it("backup name digest is 32 bytes of base64url and NFC-insensitive", async () => {
    const digest = await backupNameDigest("Ångström");
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await backupNameDigest("A\u030Angstro\u0308m")).toBe(digest);
    expect(await backupNameDigest("\u212Bngström")).toBe(digest);
    expect(await backupNameDigest("Angstrom")).not.toBe(digest);
    await expectRefusal(backupNameDigest("\ud800"), "invalid_input");
    await expectRefusal(backupNameDigest(42 as unknown as string), "invalid_input");
  });

  it("fingerprints are 16 groups of 4 hex digits and differ per key", async () => {
    const keys = await generateAccountKeys();
    const a = await fingerprint(keys.encrypt.publicKey);
    expect(a).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){15}$/);
    expect(await fingerprint(keys.sign.publicKey)).not.toBe(a);
    await expectRefusal(fingerprint(keys.sign.privateKey), "invalid_key");
  });

  it("the account fingerprint changes when either public key is swapped", async () => {
    const alice = await accountPublicKeys(await generateAccountKeys());
    const mallory = await accountPublicKeys(await generateAccountKeys());
    const original = await accountFingerprint(alice);
    expect(await accountFingerprint({ ...alice, encryptPublic: mallory.encryptPublic })).not.toBe(original);
    expect(await accountFingerprint({ ...alice, signPublic: mallory.signPublic })).not.toBe(original);
    await expectRefusal(accountFingerprint({ ...alice, signPublic: "AAAA" }), "invalid_key");
  });
});
