import { describe, expect, it } from "vitest";
import { accountPublicKeys, generateAccountKeys } from "./account-keys";
import { utf8Encode } from "./bytes";
import { parseEnvelope, serializeEnvelope } from "./envelope";
import { openSealed, sealFor } from "./seal";
import { ARGON2ID_DEFAULTS, unwrapAccountKeys, unwrapBoundAccountKeys, wrapAccountKeys } from "./secure-code-wrap";
import { signRecord, verifyRecord } from "./signatures";
import { expectRefusal } from "./test-support";

// Small Argon2id parameters keep these fast; one test below runs the defaults.
const FAST = { memoryKiB: 1024, iterations: 1, parallelism: 1 };
const CODE = "Grüezi 🔐 ß 42";

describe("secure-code wrap of the account keys", () => {
  it("round-trips: the unwrapped keys sign and open like the originals", async () => {
    const keys = await generateAccountKeys();
    const envelope = await wrapAccountKeys(keys, CODE, FAST);
    expect(envelope).toMatchObject({ v: 1, kind: "secure-code-wrap", alg: "argon2id-hkdf-sha256-aes256gcm", ...FAST });
    expect(await accountPublicKeys(keys)).toEqual({ encryptPublic: envelope.encryptPublic, signPublic: envelope.signPublic });

    const opened = await unwrapAccountKeys(serializeEnvelope(envelope), CODE);
    const sig = await signRecord(opened.sign.privateKey, { hello: "world" });
    await verifyRecord(keys.sign.publicKey, { hello: "world" }, sig);
    const sealed = await sealFor(keys.encrypt.publicKey, utf8Encode("secret"), { context: "test" });
    expect(await openSealed(sealed, opened.encrypt, { context: "test" })).toEqual(utf8Encode("secret"));
    // Unwrapped keys can be wrapped again (secure-code change).
    const rewrapped = await wrapAccountKeys(opened, "new code 77", FAST);
    await unwrapAccountKeys(rewrapped, "new code 77");
  });

  it("binds an account's instance anchor: it opens only where a reader names it, and says which", async () => {
    const keys = await generateAccountKeys();
    const [real, other] = ["AAECAwQFBgcICQoLDA0ODw", "EBESExQVFhcYGRobHB0eHw"];
    const bound = await wrapAccountKeys(keys, CODE, FAST, { anchor: real });
    // The envelope looks as any other: the binding is in the key, not a field.
    expect(Object.keys(bound).sort()).toEqual(Object.keys(await wrapAccountKeys(keys, CODE, FAST)).sort());
    const opened = await unwrapBoundAccountKeys(bound, CODE, [other, real]);
    expect(opened.anchor).toBe(real);
    expect(await accountPublicKeys(opened.keys)).toEqual(await accountPublicKeys(keys));
    // Without the anchor among those named (a server that shows another root), as a wrong code.
    await expectRefusal(unwrapAccountKeys(bound, CODE), "decrypt_failed");
    await expectRefusal(unwrapAccountKeys(bound, CODE, [other]), "decrypt_failed");
    await expectRefusal(unwrapAccountKeys(bound, "wrong code 1", [real]), "decrypt_failed");
    // An unbound wrap opens whatever anchors are named, and says none.
    const plain = await wrapAccountKeys(keys, CODE, FAST);
    expect((await unwrapBoundAccountKeys(plain, CODE, [real])).anchor).toBeNull();
    // Anchors are key ids.
    for (const bad of ["", "a\nb", "x".repeat(65), 7]) {
      await expectRefusal(wrapAccountKeys(keys, CODE, FAST, { anchor: bad as string }), "invalid_input");
      await expectRefusal(unwrapAccountKeys(bound, CODE, [bad as string]), "invalid_input");
    }
  });

  it("uses a fresh salt and nonce every time", async () => {
    const keys = await generateAccountKeys();
    const a = await wrapAccountKeys(keys, CODE, FAST);
    const b = await wrapAccountKeys(keys, CODE, FAST);
    expect(a.salt).not.toBe(b.salt);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.ct).not.toBe(b.ct);
  });

  it("refuses a wrong code with decrypt_failed", async () => {
    const keys = await generateAccountKeys();
    const envelope = await wrapAccountKeys(keys, CODE, FAST);
    for (const wrong of ["Grüezi 🔐 ß 43", "grüezi 🔐 ß 42", "Grüezi 🔐 ss 42", `${CODE} `, "x"]) {
      await expectRefusal(unwrapAccountKeys(envelope, wrong), "decrypt_failed");
    }
    await expectRefusal(unwrapAccountKeys(envelope, ""), "invalid_input");
  });

  it("treats NFC and NFD forms of the code as the same code", async () => {
    const keys = await generateAccountKeys();
    const nfd = CODE.normalize("NFD");
    expect(nfd).not.toBe(CODE);
    const envelope = await wrapAccountKeys(keys, nfd, FAST);
    await unwrapAccountKeys(envelope, CODE);
    await unwrapAccountKeys(envelope, nfd);
  });

  it("refuses parameters outside the version-1 bounds", async () => {
    const keys = await generateAccountKeys();
    for (const params of [
      { ...FAST, memoryKiB: 512 },
      { ...FAST, memoryKiB: 262145 },
      { ...FAST, iterations: 0 },
      { ...FAST, iterations: 17 },
      { ...FAST, parallelism: 5 },
      { ...FAST, iterations: 1.5 },
    ]) {
      await expectRefusal(wrapAccountKeys(keys, CODE, params), "invalid_input");
    }
  });

  it("refuses keys whose halves do not belong together", async () => {
    const a = await generateAccountKeys();
    const b = await generateAccountKeys();
    await expectRefusal(wrapAccountKeys({ encrypt: { privateKey: a.encrypt.privateKey, publicKey: b.encrypt.publicKey }, sign: a.sign }, CODE, FAST), "invalid_key");
    await expectRefusal(wrapAccountKeys({ encrypt: a.sign, sign: a.encrypt }, CODE, FAST), "invalid_key");
  });

  it("with the default parameters (64 MiB, 3 passes, 1 lane)", async () => {
    const keys = await generateAccountKeys();
    const t0 = performance.now();
    const envelope = await wrapAccountKeys(keys, CODE);
    const t1 = performance.now();
    await unwrapAccountKeys(envelope, CODE);
    const t2 = performance.now();
    expect(parseEnvelope(envelope)).toMatchObject({ memoryKiB: 65536, iterations: 3, parallelism: 1 });
    expect(ARGON2ID_DEFAULTS).toEqual({ memoryKiB: 65536, iterations: 3, parallelism: 1 });
    console.info(`secure-code wrap with defaults: wrap ${(t1 - t0).toFixed(0)} ms, unwrap ${(t2 - t1).toFixed(0)} ms`);
  });
});
