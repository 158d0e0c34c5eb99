import { describe, expect, it } from "vitest";
import { generateSymmetricKey } from "../aead";
import { expectRefusal } from "../test-support";
import { verifyIdentity } from "./identity-chain";
import { keyLookup } from "./identity-keys";
import { type GroupMessagePlace, type MessagePlaceV2, groupMessageAad, messageAad, messageAadV2, openMessage, sealMessage } from "./message";
import { type SignedMessage, openSignedMessage, sealSignedMessage, verifyMessageSignature } from "./signed-message";
import { World, recordMutations } from "./v2-test-support";

async function setting() {
  const world = await World.create();
  await world.invite(1, 2);
  await world.invite(1, 3);
  const keysOf = keyLookup(await Promise.all([1, 2, 3].map((user) => verifyIdentity(world.chain(user), world.trust))));
  const key = await generateSymmetricKey();
  const place: MessagePlaceV2 = { v: 2, conversationId: 42, epoch: 1, senderId: 2, localid: "local-1" };
  return { world, keysOf, key, place, bob: await world.me(2), carol: await world.me(3) };
}

describe("v2 messages", () => {
  it("name the epoch in their associated data; a v1 and a v2 message never open as each other", async () => {
    expect(messageAadV2(42, 1, 2, "local-1")).toBe("message:42:1:2:local-1");
    expect(messageAad(42, 2, "local-1")).toBe("message:42:2:local-1");
    expect(() => messageAadV2(42, undefined as never, 2, "x")).toThrow(/epoch/);
    const key = await generateSymmetricKey();
    const v2: MessagePlaceV2 = { v: 2, conversationId: 42, epoch: 0, senderId: 0, localid: "g-1" };
    const v1 = { conversationId: 42, senderId: 0, localid: "g-1" };
    const sealed = await sealMessage(key, v2, { text: "from the guest" });
    expect(await openMessage(key, sealed, v2)).toEqual({ text: "from the guest" });
    await expectRefusal(openMessage(key, sealed, v1), "decrypt_failed");
    await expectRefusal(openMessage(key, await sealMessage(key, v1, { text: "v1" }), v2), "decrypt_failed");
    await expectRefusal(openMessage(key, sealed, { ...v2, epoch: 1 }), "decrypt_failed");
    await expectRefusal(sealMessage(key, { ...v1, v: 3 } as never, {}), "invalid_input");
  });

  it("are signed by their sender and open only where they were sent", async () => {
    const { key, place, bob, keysOf } = await setting();
    const payload = { text: "Grüezi 🔐 ß" };
    const message = await sealSignedMessage(key, place, payload, bob);
    expect(message.senderKeyId).toBe(bob.keyId);
    expect(await openSignedMessage(key, message, place, keysOf)).toEqual(payload);
    expect((await verifyMessageSignature(message, place, keysOf)).userId).toBe(2);
    for (const moved of [{ ...place, conversationId: 43 }, { ...place, epoch: 0 }, { ...place, localid: "local-2" }]) {
      await expectRefusal(openSignedMessage(key, message, moved, keysOf), "bad_signature");
    }
    // Attributed to Carol: the lookup knows no such key of hers.
    await expectRefusal(openSignedMessage(key, message, { ...place, senderId: 3 }, keysOf), "untrusted_key");
  });

  it("refuses another envelope under the signature, a signature by someone else, and every field changed", async () => {
    const { key, place, bob, carol, keysOf } = await setting();
    const message = await sealSignedMessage(key, place, { text: "a" }, bob);
    const other = await sealSignedMessage(key, place, { text: "b" }, bob);
    await expectRefusal(openSignedMessage(key, { ...message, envelope: other.envelope }, place, keysOf), "bad_signature");
    // Carol signs a message in Bob's name with her own key id, or with his.
    const byCarol = await sealSignedMessage(key, { ...place, senderId: 3 }, { text: "c" }, carol);
    await expectRefusal(openSignedMessage(key, byCarol, place, keysOf), "untrusted_key");
    await expectRefusal(openSignedMessage(key, { ...byCarol, senderKeyId: bob.keyId }, place, keysOf), "bad_signature");
    const special: Record<string, ("untrusted_key" | "bad_signature")[]> = { "senderKeyId bit flipped": ["untrusted_key"] };
    for (const mutation of recordMutations(message, ["bad_signature"])) {
      await expectRefusal(openSignedMessage(key, mutation.value as SignedMessage, place, keysOf), ...(special[mutation.label] ?? mutation.codes!)).catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
    }
  });

  it("are signed by their sender only, never by the guest, and need a v2 place", async () => {
    const { key, place, bob, carol, keysOf } = await setting();
    await expectRefusal(sealSignedMessage(key, place, { text: "x" }, carol), "invalid_input");
    await expectRefusal(sealSignedMessage(key, { ...place, senderId: 0 }, { text: "x" }, bob), "invalid_input");
    await expectRefusal(sealSignedMessage(key, { ...place, v: 1 } as never, { text: "x" }, bob), "invalid_input");
    const message = await sealSignedMessage(key, place, { text: "x" }, bob);
    await expectRefusal(openSignedMessage(key, message, { ...place, senderId: 0 }, keysOf), "invalid_input");
    await expectRefusal(openSignedMessage(key, message, { ...place, localid: "a:b" }, keysOf), "invalid_input");
  });
});

describe("group messages", () => {
  const groupPlace = (place: MessagePlaceV2): GroupMessagePlace => ({ v: 2, groupId: place.conversationId, epoch: place.epoch, senderId: place.senderId, localid: place.localid });

  it("have their own associated data, never a sender 0, and open neither as a conversation's nor the reverse", async () => {
    expect(groupMessageAad(42, 1, 2, "local-1")).toBe("group-message:42:1:2:local-1");
    expect(() => groupMessageAad(42, 1, 0, "local-1")).toThrow(/sender/);
    expect(() => groupMessageAad(0, 1, 2, "local-1")).toThrow(/group/);
    const { key, place, bob, keysOf } = await setting();
    const inGroup = groupPlace(place);
    const sealed = await sealSignedMessage(key, inGroup, { text: "to the group" }, bob);
    expect(await openSignedMessage(key, sealed, inGroup, keysOf)).toEqual({ text: "to the group" });
    // The same ids as a conversation's message: the signed record's type and the aad differ.
    await expectRefusal(openSignedMessage(key, sealed, place, keysOf), "bad_signature");
    await expectRefusal(openMessage(key, sealed.envelope, place), "decrypt_failed");
    const inConversation = await sealSignedMessage(key, place, { text: "to the conversation" }, bob);
    await expectRefusal(openSignedMessage(key, inConversation, inGroup, keysOf), "bad_signature");
    await expectRefusal(openMessage(key, inConversation.envelope, inGroup), "decrypt_failed");
    // A place that names both is refused rather than read as either.
    await expectRefusal(sealMessage(key, { ...inGroup, conversationId: 42 } as never, {}), "invalid_input");
    await expectRefusal(sealMessage(key, { ...inGroup, v: 1 } as never, {}), "invalid_input");
  });

  it("are refused when moved to another group, epoch, sender or local id, or changed", async () => {
    const { key, place, bob, keysOf } = await setting();
    const inGroup = groupPlace(place);
    const message = await sealSignedMessage(key, inGroup, { text: "a" }, bob);
    for (const moved of [{ ...inGroup, groupId: 43 }, { ...inGroup, epoch: 0 }, { ...inGroup, localid: "local-2" }]) {
      await expectRefusal(openSignedMessage(key, message, moved, keysOf), "bad_signature");
    }
    await expectRefusal(openSignedMessage(key, message, { ...inGroup, senderId: 3 }, keysOf), "untrusted_key");
    for (const mutation of recordMutations(message, ["bad_signature"])) {
      const codes = mutation.label === "senderKeyId bit flipped" ? (["untrusted_key"] as const) : mutation.codes!;
      await expectRefusal(openSignedMessage(key, mutation.value as SignedMessage, inGroup, keysOf), ...codes).catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
    }
  });
});
