import { describe, expect, it } from "vitest";
import { decrypt, encrypt, exportSymmetricKey, generateSymmetricKey, importSymmetricKey } from "./aead";
import { utf8Decode, utf8Encode } from "./bytes";
import { MAX_AEAD_PLAINTEXT } from "./envelope";
import { expectRefusal } from "./test-support";

describe("symmetric AEAD", () => {
  it("round-trips with and without associated data", async () => {
    const key = await generateSymmetricKey();
    for (const [payload, aad] of [
      [utf8Encode("Grüezi 🔐 ß"), "mote:g1:m1:0"],
      [new Uint8Array(0), undefined],
      [Uint8Array.from({ length: 100_000 }, (_, i) => i & 0xff), Uint8Array.of(1, 2, 3)],
    ] as const) {
      const envelope = await encrypt(key, payload, { aad });
      expect(await decrypt(key, envelope, { aad })).toEqual(payload);
    }
    expect(utf8Decode(await decrypt(key, await encrypt(key, utf8Encode("x")), {}))).toBe("x");
  });

  it("fails with another key or other associated data", async () => {
    const key = await generateSymmetricKey();
    const other = await generateSymmetricKey();
    const envelope = await encrypt(key, utf8Encode("payload"), { aad: "mote:g1:m1:0" });
    await expectRefusal(decrypt(other, envelope, { aad: "mote:g1:m1:0" }), "decrypt_failed");
    for (const aad of ["mote:g1:m2:0", "mote:g1:m1:1", "", undefined, utf8Encode("mote:g1:m1:0 ")]) {
      await expectRefusal(decrypt(key, envelope, { aad }), "decrypt_failed");
    }
    // A string aad and its UTF-8 bytes are the same associated data.
    expect(await decrypt(key, envelope, { aad: utf8Encode("mote:g1:m1:0") })).toEqual(utf8Encode("payload"));
  });

  it("uses a fresh nonce every time", async () => {
    const key = await generateSymmetricKey();
    const nonces = new Set<string>();
    for (let i = 0; i < 100; i++) nonces.add((await encrypt(key, utf8Encode("same"))).nonce);
    expect(nonces.size).toBe(100);
  });

  it("exports and imports 32-byte keys and refuses anything else", async () => {
    const key = await generateSymmetricKey();
    const raw = await exportSymmetricKey(key);
    expect(raw).toHaveLength(32);
    const again = await importSymmetricKey(raw);
    const envelope = await encrypt(key, utf8Encode("x"));
    expect(await decrypt(again, envelope)).toEqual(utf8Encode("x"));
    for (const bad of [new Uint8Array(16), new Uint8Array(31), new Uint8Array(33), "abc" as unknown as Uint8Array]) {
      await expectRefusal(importSymmetricKey(bad), "invalid_key");
    }
    const aes128 = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt", "decrypt"]);
    await expectRefusal(encrypt(aes128, utf8Encode("x")), "invalid_key");
    const hmac = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
    await expectRefusal(decrypt(hmac, envelope), "invalid_key");
    const fixed = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    await expectRefusal(exportSymmetricKey(fixed), "invalid_key");
  });

  it("refuses oversized plaintext and non-bytes", async () => {
    const key = await generateSymmetricKey();
    await expectRefusal(encrypt(key, new Uint8Array(MAX_AEAD_PLAINTEXT + 1)), "invalid_input");
    await expectRefusal(encrypt(key, "text" as unknown as Uint8Array), "invalid_input");
    await expectRefusal(encrypt(key, utf8Encode("x"), { aad: 5 as unknown as string }), "invalid_input");
  });
});
