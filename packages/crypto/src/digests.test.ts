import { describe, expect, it } from "vitest";
import { accountPublicKeys, generateAccountKeys } from "./account-keys";
import { accountFingerprint, backupNameDigest, fingerprint, keyId, safetyNumber } from "./digests";
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

  it("key ids are 16 bytes of base64url over both public keys", async () => {
    const alice = await accountPublicKeys(await generateAccountKeys());
    const mallory = await accountPublicKeys(await generateAccountKeys());
    const id = await keyId(alice);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await keyId({ signPublic: alice.signPublic, encryptPublic: alice.encryptPublic })).toBe(id);
    expect(await keyId({ ...alice, encryptPublic: mallory.encryptPublic })).not.toBe(id);
    expect(await keyId({ ...alice, signPublic: mallory.signPublic })).not.toBe(id);
    await expectRefusal(keyId({ ...alice, signPublic: "AAAA" }), "invalid_key");
  });

  it("safety numbers: 12 groups of 5 digits, the same from both sides, changed by either key or user", async () => {
    const a = { userId: 1, ...(await accountPublicKeys(await generateAccountKeys())) };
    const b = { userId: 2, ...(await accountPublicKeys(await generateAccountKeys())) };
    const m = await accountPublicKeys(await generateAccountKeys());
    const number = await safetyNumber(a, b);
    expect(number).toMatch(/^[0-9]{5}( [0-9]{5}){11}$/);
    expect(await safetyNumber(b, a)).toBe(number);
    const others = [await safetyNumber(a, { ...b, encryptPublic: m.encryptPublic }), await safetyNumber(a, { ...b, signPublic: m.signPublic }), await safetyNumber(a, { ...b, userId: 3 })];
    const halves = (n: string) => n.replace(/ /g, "").match(/.{30}/g)!;
    for (const other of others) {
      expect(other).not.toBe(number);
      // Each side has its own half: the unchanged person's 30 digits stay.
      expect(halves(number).filter((half) => halves(other).includes(half))).toHaveLength(1);
    }
    await expectRefusal(safetyNumber(a, { ...b, userId: 0 }), "invalid_input");
    await expectRefusal(safetyNumber(a, { ...b, signPublic: "AAAA" }), "invalid_key");
    await expectRefusal(safetyNumber(a, undefined as never), "invalid_input");
  });
});
