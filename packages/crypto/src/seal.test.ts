import { describe, expect, it } from "vitest";
import { exportSymmetricKey, generateSymmetricKey, importSymmetricKey, decrypt, encrypt } from "./aead";
import { generateAccountKeys } from "./account-keys";
import { utf8Decode, utf8Encode } from "./bytes";
import { MAX_SEALED_PLAINTEXT } from "./envelope";
import { openSealed, sealFor } from "./seal";
import { expectRefusal } from "./test-support";

describe("sealing for a recipient", () => {
  it("round-trips any payload up to the limit, including empty and Unicode", async () => {
    const { encrypt: recipient } = await generateAccountKeys();
    for (const payload of [new Uint8Array(0), utf8Encode("Grüezi 🔐 ß"), crypto.getRandomValues(new Uint8Array(32)), new Uint8Array(MAX_SEALED_PLAINTEXT)]) {
      const envelope = await sealFor(recipient.publicKey, payload, { context: "group-key:g1:0" });
      expect(await openSealed(envelope, recipient, { context: "group-key:g1:0" })).toEqual(payload);
    }
    await expectRefusal(sealFor(recipient.publicKey, new Uint8Array(MAX_SEALED_PLAINTEXT + 1), { context: "x" }), "invalid_input");
  });

  it("carries a group key to a new member: seal the raw key, open, use it", async () => {
    const member = await generateAccountKeys();
    const groupKey = await generateSymmetricKey();
    const sealed = await sealFor(member.encrypt.publicKey, await exportSymmetricKey(groupKey), { context: "group-key:g1:3" });
    const received = await importSymmetricKey(await openSealed(sealed, member.encrypt, { context: "group-key:g1:3" }));
    const dockey = await encrypt(groupKey, utf8Encode("payload"), { aad: "mote:g1:m9:3" });
    expect(utf8Decode(await decrypt(received, dockey, { aad: "mote:g1:m9:3" }))).toBe("payload");
  });

  it("uses a fresh ephemeral key and nonce every time", async () => {
    const { encrypt: recipient } = await generateAccountKeys();
    const a = await sealFor(recipient.publicKey, utf8Encode("k"), { context: "c" });
    const b = await sealFor(recipient.publicKey, utf8Encode("k"), { context: "c" });
    expect(a.epk).not.toBe(b.epk);
    expect(a.nonce).not.toBe(b.nonce);
  });

  it("fails for another recipient, another context, or a mismatched key pair", async () => {
    const alice = await generateAccountKeys();
    const bob = await generateAccountKeys();
    const envelope = await sealFor(alice.encrypt.publicKey, utf8Encode("k"), { context: "group-key:g1:1" });
    await expectRefusal(openSealed(envelope, bob.encrypt, { context: "group-key:g1:1" }), "decrypt_failed");
    for (const context of ["group-key:g1:2", "group-key:g2:1", "conversation-key:g1:1", "group-key:g1:1/"]) {
      await expectRefusal(openSealed(envelope, alice.encrypt, { context }), "decrypt_failed");
    }
    // The recipient's public key is part of the derivation.
    await expectRefusal(openSealed(envelope, { privateKey: alice.encrypt.privateKey, publicKey: bob.encrypt.publicKey }, { context: "group-key:g1:1" }), "decrypt_failed");
  });

  it("refuses bad contexts and keys of the wrong kind", async () => {
    const keys = await generateAccountKeys();
    for (const context of ["", "a b", "grüezi", "x".repeat(129), "a\nb"]) {
      await expectRefusal(sealFor(keys.encrypt.publicKey, utf8Encode("k"), { context }), "invalid_input");
    }
    await expectRefusal(sealFor(keys.encrypt.publicKey, utf8Encode("k"), undefined as never), "invalid_input");
    await expectRefusal(sealFor(keys.sign.publicKey, utf8Encode("k"), { context: "c" }), "invalid_key");
    await expectRefusal(sealFor(keys.encrypt.privateKey, utf8Encode("k"), { context: "c" }), "invalid_key");
    const envelope = await sealFor(keys.encrypt.publicKey, utf8Encode("k"), { context: "c" });
    await expectRefusal(openSealed(envelope, keys.sign, { context: "c" }), "invalid_key");
  });

  it("refuses to seal for a low-order public key", async () => {
    const low = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "X25519" }, true, []);
    await expectRefusal(sealFor(low, utf8Encode("k"), { context: "c" }), "invalid_key");
  });
});
