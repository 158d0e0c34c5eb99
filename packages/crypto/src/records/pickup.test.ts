import { describe, expect, it } from "vitest";
import { encrypt, exportSymmetricKey, generateSymmetricKey } from "../aead";
import { generateAccountKeys } from "../account-keys";
import { utf8Encode } from "../bytes";
import { serializeEnvelope } from "../envelope";
import { derivePickupKeys, pickupParams } from "../pickup";
import { expectRefusal } from "../test-support";
import { openConversationKey } from "./conversation-key";
import { LEGACY_CONVERSATION_TITLE_AAD } from "./conversation-title";
import { openPickup, sealPickup } from "./pickup";
import { openThumbnail, sealThumbnail } from "./thumbnail";

const params = { memoryKiB: 1024, iterations: 1, parallelism: 1 };
const secrets = { code: "ABABA12121", securityCode: "123456", linkSecret: null };

describe("what a pickup's creation seals", () => {
  it("the creator's key and the title bound to the conversation, the guest's wrap of the same key", async () => {
    const creator = await generateAccountKeys();
    const conversationKey = await generateSymmetricKey();
    const sealed = await sealPickup({ conversationId: 8, conversationKey, creatorPublic: creator.encrypt.publicKey, secrets, title: "Steuern 2025", params });
    const mine = await openConversationKey(sealed.sealed, creator.encrypt, { conversationId: 8, extractable: true });
    expect(await exportSymmetricKey(mine.key)).toEqual(await exportSymmetricKey(conversationKey));

    const keys = await derivePickupKeys(secrets, pickupParams(sealed.wrapped));
    expect(keys.auth).toBe(sealed.auth);
    const guest = await openPickup(keys, { conversationId: 8, wrapped: sealed.wrapped, title: sealed.title, extractable: true });
    expect(guest.title).toBe("Steuern 2025");
    expect(await exportSymmetricKey(guest.key)).toEqual(await exportSymmetricKey(conversationKey));
    // The guest's own copy (the default) cannot be read back: a guest never seals it for anyone.
    expect((await openPickup(keys, { conversationId: 8, wrapped: sealed.wrapped })).key.extractable).toBe(false);
    await expectRefusal(openPickup(keys, { conversationId: 9, wrapped: sealed.wrapped, title: sealed.title }), "decrypt_failed");
    await expectRefusal(openPickup(await derivePickupKeys({ ...secrets, securityCode: "654321" }, pickupParams(sealed.wrapped)), { conversationId: 8, wrapped: sealed.wrapped }), "decrypt_failed");
  });

  it("no title without one; a v1 title opens for the guest as legacy", async () => {
    const creator = await generateAccountKeys();
    const conversationKey = await generateSymmetricKey();
    const sealed = await sealPickup({ conversationId: 8, conversationKey, creatorPublic: creator.encrypt.publicKey, secrets, title: "", params });
    expect(sealed).not.toHaveProperty("title");
    const keys = await derivePickupKeys(secrets, pickupParams(sealed.wrapped));
    expect(await openPickup(keys, { conversationId: 8, wrapped: sealed.wrapped, title: null })).toMatchObject({ title: null, legacy: false });
    const v1 = serializeEnvelope(await encrypt(conversationKey, utf8Encode("old"), { aad: LEGACY_CONVERSATION_TITLE_AAD }));
    expect(await openPickup(keys, { conversationId: 8, wrapped: sealed.wrapped, title: v1 })).toMatchObject({ title: "old", legacy: true });
    await expectRefusal(openPickup(keys, { conversationId: 0, wrapped: sealed.wrapped }), "invalid_input");
  });
});

describe("the thumbnail record", () => {
  it("opens under its file's key only", async () => {
    const fileKey = await generateSymmetricKey();
    const image = crypto.getRandomValues(new Uint8Array(300));
    const envelope = await sealThumbnail(fileKey, image);
    expect(await openThumbnail(fileKey, envelope)).toEqual(image);
    await expectRefusal(openThumbnail(await generateSymmetricKey(), envelope), "decrypt_failed");
    await expectRefusal(openThumbnail(fileKey, serializeEnvelope(await encrypt(fileKey, image, { aad: "other" }))), "decrypt_failed");
  });
});
