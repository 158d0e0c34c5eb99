import { describe, expect, it } from "vitest";
import { importSymmetricKey } from "../aead";
import { keyPairFromSeed } from "../account-keys";
import { hexEncode, utf8Decode, utf8Encode } from "../bytes";
import { derivePickupKeys, pickupParams } from "../pickup";
import type { Key, KeyPair } from "../primitives";
import { expectRefusal, hex } from "../test-support";
import vectors from "../vectors.json";
import { conversationKeyContext, openConversationKey, sealConversationKeyWith } from "./conversation-key";
import { conversationTitleAad, openConversationTitle, sealConversationTitleWith } from "./conversation-title";
import { type MessagePayload, messageAad, openMessage, sealMessageWith } from "./message";
import { openPickup, sealPickupWith } from "./pickup";
import { openThumbnail, sealThumbnailWith } from "./thumbnail";

// The records of protocol version 1 with fixed randomness, against the second implementation
// (scripts/make-vectors.mjs on node:crypto). A change to any output is a new protocol version.

const records = vectors.records;
const recipient = () => keyPairFromSeed(hex(vectors.seeds.recipientX25519), "X25519");
const ephemeral = () => keyPairFromSeed(hex(vectors.seeds.ephemeralX25519), "X25519");
const conversationKey = () => importSymmetricKey(hex(records.conversationKey[0]!.plaintext));
const rawKey = async (key: Key) => hexEncode(new Uint8Array(await crypto.subtle.exportKey("raw", key)));
const textOf = (t: { text: string; utf8: string }) => utf8Decode(hex(t.utf8));

describe("record vectors, protocol version 1", () => {
  it("text inputs still hold the bytes they were made with, NFC and NFD apart", () => {
    const texts = [...records.conversationTitle.map((v) => v.title), ...records.message.map((v) => v.json), ...records.pickup.map((v) => v.title)];
    for (const t of texts) expect(hexEncode(utf8Encode(t.text))).toBe(t.utf8);
    expect(records.conversationTitle[0]!.title.text.normalize("NFD")).toBe(records.conversationTitle[1]!.title.text);
    expect(records.conversationTitle[0]!.title.utf8).not.toBe(records.conversationTitle[1]!.title.utf8);
    expect(records.message[0]!.json.utf8).not.toBe(records.message[1]!.json.utf8);
  });

  describe.each(records.conversationKey)("conversation key for $conversationId under $context", (v) => {
    it("seals to the known envelope (bound contexts) and opens, telling legacy apart", async () => {
      const key = await conversationKey();
      if (!v.legacy) {
        expect(conversationKeyContext(v.conversationId, v.epoch)).toBe(v.context);
        const sealed = await sealConversationKeyWith(key, (await recipient()).publicKey, { conversationId: v.conversationId }, { ephemeral: await ephemeral(), nonce: hex(v.nonce) });
        expect(sealed).toBe(v.envelope);
      }
      const opened = await openConversationKey(v.envelope, await recipient(), { conversationId: v.conversationId, extractable: true });
      expect(await rawKey(opened.key)).toBe(v.plaintext);
      expect(opened.legacy).toBe(v.legacy);
    });

    it("does not open as another conversation's key, nor under another epoch", async () => {
      const pair: KeyPair = await recipient();
      if (!v.legacy) await expectRefusal(openConversationKey(v.envelope, pair, { conversationId: v.conversationId - 1 }), "decrypt_failed");
      await expectRefusal(openConversationKey(v.envelope, pair, { conversationId: v.conversationId, epoch: 1 }), "decrypt_failed");
    });
  });

  it("a legacy key opens for any id, but only on the legacy path, which callers can refuse", async () => {
    const legacy = records.conversationKey.find((v) => v.legacy)!;
    expect((await openConversationKey(legacy.envelope, await recipient(), { conversationId: 7 })).legacy).toBe(true);
    await expectRefusal(openConversationKey(legacy.envelope, await recipient(), { conversationId: 42, allowLegacy: false }), "decrypt_failed");
  });

  describe.each(records.conversationTitle)("title of $conversationId under '$aad'", (v) => {
    it("seals to the known envelope (bound aad), opens to the same text, and stays in its conversation", async () => {
      const key = await conversationKey();
      if (!v.legacy) {
        expect(conversationTitleAad(v.conversationId, v.epoch)).toBe(v.aad);
        expect(await sealConversationTitleWith(key, textOf(v.title), { conversationId: v.conversationId }, hex(v.nonce))).toBe(v.envelope);
        await expectRefusal(openConversationTitle(key, v.envelope, { conversationId: v.conversationId === 42 ? 43 : 42 }), "decrypt_failed");
      } else {
        await expectRefusal(openConversationTitle(key, v.envelope, { conversationId: v.conversationId, allowLegacy: false }), "decrypt_failed");
      }
      expect(await openConversationTitle(key, v.envelope, { conversationId: v.conversationId })).toEqual({ title: textOf(v.title), legacy: v.legacy });
    });
  });

  describe.each(records.message)("message $localid of sender $senderId in $conversationId", (v) => {
    it("seals to the known envelope whatever the payload's key order, and opens to the payload", async () => {
      const key = await conversationKey();
      const place = { conversationId: v.conversationId, senderId: v.senderId, localid: v.localid };
      expect(messageAad(v.conversationId, v.senderId, v.localid)).toBe(v.aad);
      const payload = JSON.parse(textOf(v.json)) as MessagePayload;
      const reordered = Object.fromEntries(Object.entries(payload).reverse()) as MessagePayload;
      expect(await sealMessageWith(key, place, reordered, hex(v.nonce))).toBe(v.envelope);
      expect(await openMessage(key, v.envelope, place)).toEqual(payload);
    });

    it("does not open in another conversation, from another sender, as another local id", async () => {
      const key = await conversationKey();
      const place = { conversationId: v.conversationId, senderId: v.senderId, localid: v.localid };
      for (const moved of [{ ...place, conversationId: place.conversationId + 1 }, { ...place, senderId: place.senderId + 1 }, { ...place, localid: `${place.localid}x` }]) {
        await expectRefusal(openMessage(key, v.envelope, moved), "decrypt_failed");
      }
    });
  });

  it.each(records.thumbnail)("thumbnail under '$aad'", async (v) => {
    const fileKey = await importSymmetricKey(hex(v.key));
    expect(await sealThumbnailWith(fileKey, hex(v.plaintext), hex(v.nonce))).toBe(v.envelope);
    expect(hexEncode(await openThumbnail(fileKey, v.envelope))).toBe(v.plaintext);
    await expectRefusal(openThumbnail(await conversationKey(), v.envelope), "decrypt_failed");
  });

  it.each(records.pickup)("pickup of conversation $conversationId: creator's key, guest's wrap, title", async (v) => {
    const key = await importSymmetricKey(hex(v.conversationKey));
    const secrets = { code: v.code, securityCode: v.securityCode, linkSecret: v.linkSecret };
    const sealed = await sealPickupWith(
      { conversationId: v.conversationId, conversationKey: key, creatorPublic: (await recipient()).publicKey, secrets, title: textOf(v.title), params: v.params },
      { seal: { ephemeral: await ephemeral(), nonce: hex(v.sealNonce) }, wrap: { salt: hex(v.wrapSalt), nonce: hex(v.wrapNonce) }, titleNonce: hex(v.titleNonce) },
    );
    expect(sealed).toEqual({ sealed: v.sealed, wrapped: v.wrapped, verifier: v.verifier, auth: v.auth, title: v.titleEnvelope });

    const creator = await openConversationKey(v.sealed, await recipient(), { conversationId: v.conversationId, extractable: true });
    expect({ key: await rawKey(creator.key), legacy: creator.legacy }).toEqual({ key: v.conversationKey, legacy: false });
    const keys = await derivePickupKeys(secrets, pickupParams(v.wrapped));
    const guest = await openPickup(keys, { conversationId: v.conversationId, wrapped: v.wrapped, title: v.titleEnvelope, extractable: true });
    expect({ key: await rawKey(guest.key), title: guest.title, legacy: guest.legacy }).toEqual({ key: v.conversationKey, title: textOf(v.title), legacy: false });
    // The creator's copy and the title belong to this conversation only.
    await expectRefusal(openConversationKey(v.sealed, await recipient(), { conversationId: v.conversationId + 1 }), "decrypt_failed");
    await expectRefusal(openPickup(keys, { conversationId: v.conversationId + 1, wrapped: v.wrapped, title: v.titleEnvelope }), "decrypt_failed");
  });
});
