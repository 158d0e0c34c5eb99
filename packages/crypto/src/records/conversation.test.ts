import { describe, expect, it } from "vitest";
import { encrypt, exportSymmetricKey, generateSymmetricKey } from "../aead";
import { exportPublicKey, generateAccountKeys } from "../account-keys";
import { utf8Encode } from "../bytes";
import { serializeEnvelope } from "../envelope";
import { sealFor } from "../seal";
import type { Key } from "../primitives";
import { expectRefusal } from "../test-support";
import { LEGACY_CONVERSATION_KEY_CONTEXT, conversationKeyContext, openConversationKey, sealConversationKey } from "./conversation-key";
import { LEGACY_CONVERSATION_TITLE_AAD, conversationTitleAad, openConversationTitle, sealConversationTitle } from "./conversation-title";

const raw = async (key: Key) => Array.from(await exportSymmetricKey(key));
const BAD_IDS = [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, "42", null, undefined];

/** A conversation key sealed and a title encrypted the way protocol v1 did, before ids were bound. */
async function v1Records(title: string) {
  const alice = await generateAccountKeys();
  const key = await generateSymmetricKey();
  const sealed = serializeEnvelope(await sealFor(alice.encrypt.publicKey, await exportSymmetricKey(key), { context: LEGACY_CONVERSATION_KEY_CONTEXT }));
  const titled = serializeEnvelope(await encrypt(key, utf8Encode(title), { aad: LEGACY_CONVERSATION_TITLE_AAD }));
  return { alice, key, sealed, titled };
}

describe("the conversation key record", () => {
  it("names the conversation and the epoch", () => {
    expect(conversationKeyContext(42)).toBe("conversation-key:42:0");
    expect(conversationKeyContext(42, 3)).toBe("conversation-key:42:3");
    for (const bad of BAD_IDS) expect(() => conversationKeyContext(bad as number)).toThrow(/conversation id/);
    expect(() => conversationKeyContext(42, -1)).toThrow(/epoch/);
  });

  it("opens for its participant, sealed for a key or for the raw public key; extractable only when asked (to seal it on)", async () => {
    const alice = await generateAccountKeys();
    const key = await generateSymmetricKey();
    for (const recipient of [alice.encrypt.publicKey, await exportPublicKey(alice.encrypt.publicKey)]) {
      const sealed = await sealConversationKey(key, recipient, { conversationId: 12 });
      const opened = await openConversationKey(sealed, alice.encrypt, { conversationId: 12, extractable: true });
      expect(opened.legacy).toBe(false);
      expect(await raw(opened.key)).toEqual(await raw(key));
      // By default the opened copy reads and writes, and cannot be read back.
      const locked = await openConversationKey(sealed, alice.encrypt, { conversationId: 12 });
      expect(locked.key.extractable).toBe(false);
      await expectRefusal(raw(locked.key), "invalid_key");
      const title = await sealConversationTitle(locked.key, "Grüezi", { conversationId: 12 });
      expect((await openConversationTitle(opened.key, title, { conversationId: 12 })).title).toBe("Grüezi");
    }
  });

  it("a key sealed for conversation Y never opens as X's, nor for another person or epoch", async () => {
    const [alice, bob] = await Promise.all([generateAccountKeys(), generateAccountKeys()]);
    const sealed = await sealConversationKey(await generateSymmetricKey(), alice.encrypt.publicKey, { conversationId: 12 });
    await expectRefusal(openConversationKey(sealed, alice.encrypt, { conversationId: 13 }), "decrypt_failed");
    await expectRefusal(openConversationKey(sealed, alice.encrypt, { conversationId: 12, epoch: 1 }), "decrypt_failed");
    await expectRefusal(openConversationKey(sealed, bob.encrypt, { conversationId: 12 }), "decrypt_failed");
  });

  it("opens a v1 key on the legacy path, and says so; refused when legacy is not allowed or the epoch is not 0", async () => {
    const { alice, key, sealed } = await v1Records("t");
    const opened = await openConversationKey(sealed, alice.encrypt, { conversationId: 5, extractable: true });
    expect(opened.legacy).toBe(true);
    expect(await raw(opened.key)).toEqual(await raw(key));
    await expectRefusal(openConversationKey(sealed, alice.encrypt, { conversationId: 5, allowLegacy: false }), "decrypt_failed");
    await expectRefusal(openConversationKey(sealed, alice.encrypt, { conversationId: 5, epoch: 1 }), "decrypt_failed");
  });

  it("refuses what is not a sealed key or not a place without trying the legacy path", async () => {
    const alice = await generateAccountKeys();
    const key = await generateSymmetricKey();
    const aead = serializeEnvelope(await encrypt(key, new Uint8Array(32)));
    await expectRefusal(openConversationKey(aead, alice.encrypt, { conversationId: 1 }), "wrong_kind");
    await expectRefusal(openConversationKey("{}", alice.encrypt, { conversationId: 1 }), "malformed_envelope");
    const sealed = await sealConversationKey(key, alice.encrypt.publicKey, { conversationId: 1 });
    for (const bad of BAD_IDS) {
      await expectRefusal(openConversationKey(sealed, alice.encrypt, { conversationId: bad as number }), "invalid_input");
      await expectRefusal(sealConversationKey(key, alice.encrypt.publicKey, { conversationId: bad as number }), "invalid_input");
    }
    await expectRefusal(sealConversationKey(key, alice.encrypt.publicKey, undefined as never), "invalid_input");
  });
});

describe("the conversation title record", () => {
  it("keeps the title as typed (NFC and NFD stay apart) and binds it to the conversation", async () => {
    const key = await generateSymmetricKey();
    expect(conversationTitleAad(42)).toBe("conversation-title:42:0");
    for (const title of ["Grüezi 🔐 ß", "Grüezi 🔐 ß".normalize("NFD"), "", "line\nbreak"]) {
      const envelope = await sealConversationTitle(key, title, { conversationId: 42 });
      expect(await openConversationTitle(key, envelope, { conversationId: 42 })).toEqual({ title, legacy: false });
      // A title moved to another conversation that shares the key does not open there.
      await expectRefusal(openConversationTitle(key, envelope, { conversationId: 43 }), "decrypt_failed");
    }
    await expectRefusal(openConversationTitle(await generateSymmetricKey(), await sealConversationTitle(key, "x", { conversationId: 1 }), { conversationId: 1 }), "decrypt_failed");
  });

  it("opens a v1 title on the legacy path only when allowed; refuses bad input", async () => {
    const { key, titled } = await v1Records("Ångström");
    expect(await openConversationTitle(key, titled, { conversationId: 9 })).toEqual({ title: "Ångström", legacy: true });
    await expectRefusal(openConversationTitle(key, titled, { conversationId: 9, allowLegacy: false }), "decrypt_failed");
    await expectRefusal(sealConversationTitle(key, 5 as never, { conversationId: 1 }), "invalid_input");
    await expectRefusal(sealConversationTitle(key, "\ud800", { conversationId: 1 }), "invalid_input");
    const notText = serializeEnvelope(await encrypt(key, new Uint8Array([0xff]), { aad: conversationTitleAad(1) }));
    await expectRefusal(openConversationTitle(key, notText, { conversationId: 1 }), "invalid_payload");
  });
});
