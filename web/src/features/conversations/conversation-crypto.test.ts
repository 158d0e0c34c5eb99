import {
  LEGACY_CONVERSATION_KEY_CONTEXT,
  LEGACY_CONVERSATION_TITLE_AAD,
  accountPublicKeys,
  encrypt,
  exportSymmetricKey,
  generateAccountKeys,
  sealFor,
  serializeEnvelope,
  utf8Encode,
} from "@sealwork/crypto";
import { describe, expect, it, vi } from "vitest";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { decryptTitle, encryptTitle, newConversationKey, openConversationKey, sealKeyForPublic } from "./conversation-crypto";

// The trusted key lookup talks to the API (and the pins); sealing for a public key needs neither.
vi.mock("../../lib/trust", () => ({ trustedKey: vi.fn() }));

async function member(uid: number): Promise<UnlockedKeys> {
  const keys = await generateAccountKeys();
  return { uid, keys, publicKeys: await accountPublicKeys(keys) } as UnlockedKeys;
}

describe("conversation keys and titles in the web client", () => {
  it("a key made for a reserved id seals and titles for that id; opened, it reads them", async () => {
    const me = await member(1);
    const key = await newConversationKey(21);
    const sealed = await sealKeyForPublic(key, me.publicKeys.encryptPublic);
    const title = await encryptTitle(key, "Grüezi 🔐");
    const opened = await openConversationKey(21, sealed, me);
    expect(await decryptTitle(opened, title)).toBe("Grüezi 🔐");
    // Another conversation's id does not fit the key, and the key does not open as another conversation's.
    await expect(decryptTitle(opened, title, 22)).rejects.toThrow(/belongs to conversation 21/);
    await expect(openConversationKey(22, sealed, me)).rejects.toThrow();
    await expect(encryptTitle(await newConversationKey(), "x")).rejects.toThrow(/no known conversation/);
  });

  it("opens a conversation from before ids were bound and its v1 title, also for someone added since", async () => {
    const [me, newcomer] = await Promise.all([member(2), member(3)]);
    const v1Key = await newConversationKey();
    const v1Sealed = serializeEnvelope(await sealFor(me.keys.encrypt.publicKey, await exportSymmetricKey(v1Key), { context: LEGACY_CONVERSATION_KEY_CONTEXT }));
    const v1Title = serializeEnvelope(await encrypt(v1Key, utf8Encode("old title"), { aad: LEGACY_CONVERSATION_TITLE_AAD }));
    const opened = await openConversationKey(31, v1Sealed, me);
    expect(await decryptTitle(opened, v1Title)).toBe("old title");
    // The opened copy cannot be read back (issue 11, item 8); sealing it on opens it once more.
    expect(opened.extractable).toBe(false);
    await expect(exportSymmetricKey(opened)).rejects.toThrow();
    // Adding someone seals a bound copy; they read the v1 title too.
    const theirs = await openConversationKey(31, await sealKeyForPublic(opened, newcomer.publicKeys.encryptPublic), newcomer);
    expect(await decryptTitle(theirs, v1Title)).toBe("old title");
    // A rename after the update binds the new title, which both read.
    const renamed = await encryptTitle(opened, "new title");
    expect([await decryptTitle(opened, renamed), await decryptTitle(theirs, renamed)]).toEqual(["new title", "new title"]);
    await expect(decryptTitle(opened, renamed, 32)).rejects.toThrow();
  });
});
