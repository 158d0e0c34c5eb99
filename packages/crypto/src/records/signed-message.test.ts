import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSymmetricKey } from "../aead";
import { expectRefusal } from "../test-support";
import { verifyIdentity } from "./identity-chain";
import { type IdentityKeys, keyLookup } from "./identity-keys";
import { type SignedMembershipEntry, type VerifiedLog, appendToLog, createLog, membershipContainer, verifyLog } from "./membership-log";
import { type GroupMessagePlace, type MessagePlaceV2, groupMessageAad, messageAad, messageAadV2, openMessage, sealMessage } from "./message";
import {
  MessageVouchers,
  type SignedMessage,
  checkMessageHead,
  openSignedMessage,
  openSignedMessages,
  sealSignedMessage,
  signedMessageDigest,
  verifyMessageSignature,
} from "./signed-message";
import { T0, World, recordMutations } from "./v2-test-support";

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

/**
 * Conversation 42's log as Bob (2) was shown it and as Carol (3) was: the same first entries (1
 * creates it and adds 2 and 3), then `bobs` and `carols` more by user 1 each (a fork when they differ).
 */
async function twoViews(setup: Awaited<ReturnType<typeof setting>>, root: IdentityKeys) {
  const container = membershipContainer("conversation", 42);
  const ref = (user: IdentityKeys) => ({ userId: user.userId, keyId: user.keyId });
  const entries: SignedMembershipEntry[] = [await createLog(container, root, T0)];
  const verify = (list: SignedMembershipEntry[]) => verifyLog(container, list, setup.keysOf);
  entries.push(await appendToLog(await verify(entries), { action: "add", subject: ref(setup.bob), at: T0 + 1 }, root));
  entries.push(await appendToLog(await verify(entries), { action: "add", subject: ref(setup.carol), at: T0 + 2 }, root));
  const more = async (list: SignedMembershipEntry[], change: Parameters<typeof appendToLog>[1]) => [...list, await appendToLog(await verify(list), change, root)];
  return { entries, verify, more, ref };
}

describe("the log head a signed message names (docs/protocol.md §14.8, heads in messages)", () => {
  async function scene() {
    const setup = await setting();
    const root = await setup.world.me(1);
    const views = await twoViews(setup, root);
    // Epoch 0 of conversation 42, with Bob and Carol in it.
    const place: MessagePlaceV2 = { ...setup.place, epoch: 0 };
    return { ...setup, root, ...views, place };
  }

  it("is signed with the message, checked against the reader's log: the same seq with the same hash passes", async () => {
    const { key, place, bob, keysOf, entries, verify } = await scene();
    const log = await verify(entries);
    const message = await sealSignedMessage(key, place, { text: "wer ist dabei?" }, bob, log.head);
    expect(message.logHead).toEqual(log.head);
    expect(await openSignedMessage(key, message, place, keysOf)).toEqual({ text: "wer ist dabei?" });
    expect(await checkMessageHead(message, place, log)).toBe(log);
  });

  it("passes a head the reader's longer log holds, and one before it", async () => {
    const { key, place, bob, carol, keysOf, entries, verify, more, ref } = await scene();
    const older = await verify(entries.slice(0, 2));
    const longer = await verify(await more(entries, { action: "promote", subject: ref(carol), at: T0 + 3 }));
    const message = await sealSignedMessage(key, place, { text: "x" }, bob, older.head);
    await verifyMessageSignature(message, place, keysOf);
    expect(await checkMessageHead(message, place, longer)).toBe(longer);
  });

  it("is log_fork when the reader's log has another entry at that seq (a fork no remembered head shows)", async () => {
    const { key, place, bob, keysOf, entries, verify, more, ref, carol } = await scene();
    // Bob was shown Carol promoted; Carol was shown Carol removed (both really signed by user 1).
    const bobs = await verify(await more(entries, { action: "promote", subject: ref(carol), at: T0 + 3 }));
    const carols = await verify(await more(entries, { action: "promote", subject: ref(bob), at: T0 + 3 }));
    expect(bobs.head.seq).toBe(carols.head.seq);
    const message = await sealSignedMessage(key, place, { text: "x" }, bob, bobs.head);
    await verifyMessageSignature(message, place, keysOf);
    await expectRefusal(checkMessageHead(message, place, carols), "log_fork");
  });

  it("beyond the reader's log: looked for in the log fetched again; still beyond, or a newer log that does not continue it, is log_fork", async () => {
    const { key, place, bob, entries, verify, more, ref, carol } = await scene();
    const readers = await verify(entries);
    const senders = await verify(await more(entries, { action: "promote", subject: ref(carol), at: T0 + 3 }));
    const message = await sealSignedMessage(key, place, { text: "x" }, bob, senders.head);
    // Without a way to fetch: a head the reader's log does not reach.
    await expectRefusal(checkMessageHead(message, place, readers), "log_fork");
    // Fetched again, the server serves the sender's log: found there, and that log answered.
    let asked = 0;
    const fetched = await checkMessageHead(message, place, readers, async (log: VerifiedLog) => {
      asked++;
      expect(log).toBe(readers);
      return senders;
    });
    expect(fetched).toBe(senders);
    expect(asked).toBe(1);
    // The server keeps serving the reader's log (it withholds what it showed the sender).
    await expectRefusal(checkMessageHead(message, place, readers, async () => readers), "log_fork");
    // A newer log that lacks the reader's own head, or ends before it.
    const other = await verify(await more(await more(entries.slice(0, 2), { action: "add", subject: ref(carol), at: T0 + 9 }), { action: "promote", subject: ref(carol), at: T0 + 10 }));
    await expectRefusal(checkMessageHead(message, place, readers, async () => other), "log_fork");
    await expectRefusal(checkMessageHead(message, place, readers, async () => verify(entries.slice(0, 2))), "log_fork");
  });

  it("names a state of the message's epoch (bad_chain otherwise); a malformed head is malformed_record", async () => {
    const { key, place, bob, entries, verify } = await scene();
    const log = await verify(entries);
    const message = await sealSignedMessage(key, { ...place, epoch: 1 }, { text: "x" }, bob, log.head);
    await expectRefusal(checkMessageHead(message, { ...place, epoch: 1 }, log), "bad_chain");
    await expectRefusal(checkMessageHead({ ...message, logHead: { seq: -1, hash: log.head.hash } }, place, log), "malformed_record");
    await expectRefusal(sealSignedMessage(key, place, { text: "x" }, bob, { seq: 1, hash: "short" }), "invalid_input");
  });

  it("is absent from messages signed before heads were exchanged: they open and pass as before", async () => {
    const { key, place, bob, keysOf, entries, verify } = await scene();
    const log = await verify(entries);
    const old = await sealSignedMessage(key, place, { text: "from before" }, bob);
    expect("logHead" in old).toBe(false);
    expect(await openSignedMessage(key, old, place, keysOf)).toEqual({ text: "from before" });
    expect(await checkMessageHead(old, place, log)).toBe(log);
  });

  it("cannot be stripped, added, moved or changed by the server: the signature covers it", async () => {
    const { key, place, bob, keysOf, entries, verify, more, ref, carol } = await scene();
    const log = await verify(entries);
    const later = await verify(await more(entries, { action: "promote", subject: ref(carol), at: T0 + 3 }));
    const message = await sealSignedMessage(key, place, { text: "x" }, bob, log.head);
    const { logHead: _head, ...stripped } = message;
    await expectRefusal(openSignedMessage(key, stripped, place, keysOf), "bad_signature");
    const old = await sealSignedMessage(key, place, { text: "y" }, bob);
    await expectRefusal(openSignedMessage(key, { ...old, logHead: log.head }, place, keysOf), "bad_signature");
    for (const head of [later.head, log.history[1]!.head, { seq: log.head.seq, hash: later.head.hash }]) {
      await expectRefusal(openSignedMessage(key, { ...message, logHead: head }, place, keysOf), "bad_signature");
    }
    // The head is optional in the shape: removed, it is the signature that fails.
    const special: Record<string, ("untrusted_key" | "bad_signature")[]> = { "senderKeyId bit flipped": ["untrusted_key"], "logHead removed": ["bad_signature"] };
    for (const mutation of recordMutations(message, ["bad_signature"])) {
      const codes = special[mutation.label] ?? mutation.codes!;
      await expectRefusal(openSignedMessage(key, mutation.value as SignedMessage, place, keysOf), ...codes).catch((failure: Error) => {
        throw new Error(`${mutation.label}: ${failure.message}`);
      });
    }
    // A group message's head the same way.
    const inGroup: GroupMessagePlace = { v: 2, groupId: 42, epoch: 0, senderId: 2, localid: "local-1" };
    const groupMessage = await sealSignedMessage(key, inGroup, { text: "z" }, bob, log.head);
    expect(await openSignedMessage(key, groupMessage, inGroup, keysOf)).toEqual({ text: "z" });
    await expectRefusal(openSignedMessage(key, { ...groupMessage, logHead: later.head }, inGroup, keysOf), "bad_signature");
  });
});

describe("messages vouched for by the next one of their sender", () => {
  async function chainOf() {
    const s = await setting();
    const at = (localid: string, senderId = 2) => ({ ...s.place, senderId, localid });
    const send = async (localid: string, text: string, prev?: SignedMessage, by = s.bob, senderId = 2) => {
      const payload = prev ? { text, prev: await signedMessageDigest(prev, at(prevIds.get(prev)!, senderId)) } : { text };
      const message = await sealSignedMessage(s.key, at(localid, senderId), payload, by);
      prevIds.set(message, localid);
      return message;
    };
    const prevIds = new Map<SignedMessage, string>();
    const m1 = await send("b-1", "one");
    const m2 = await send("b-2", "two", m1);
    const m3 = await send("b-3", "three", m2);
    const c1 = await sealSignedMessage(s.key, at("c-1", 3), { text: "carol" }, s.carol);
    return { ...s, at, send, m1, m2, m3, c1 };
  }
  const summary = (results: Awaited<ReturnType<typeof openSignedMessages>>) => results.map((r) => (r.ok ? `${r.payload.text}:${r.by}` : r.error.code));

  it("checks the newest message of each sender by its signature and the older ones by the digest it names, across pages", async () => {
    const { key, keysOf, at, m1, m2, m3, c1 } = await chainOf();
    const vouchers = new MessageVouchers();
    const newer = await openSignedMessages([{ message: m3, place: at("b-3"), key }, { message: c1, place: at("c-1", 3), key }], keysOf, vouchers);
    expect(summary(newer)).toEqual(["three:signature", "carol:signature"]);
    const older = await openSignedMessages([{ message: m2, place: at("b-2"), key }, { message: m1, place: at("b-1"), key }], keysOf, vouchers);
    expect(summary(older)).toEqual(["two:vouched", "one:vouched"]);
    // In one batch too; a fresh reader without vouchers checks what no newer message names.
    expect(summary(await openSignedMessages([m3, m2, m1].map((message, i) => ({ message, place: at(`b-${3 - i}`), key })), keysOf, new MessageVouchers()))).toEqual([
      "three:signature",
      "two:vouched",
      "one:vouched",
    ]);
    // Oldest first, nothing is vouched for yet when it is opened: every signature is checked.
    expect(summary(await openSignedMessages([m1, m2, m3].map((message, i) => ({ message, place: at(`b-${i + 1}`), key })), keysOf, new MessageVouchers()))).toEqual([
      "one:signature",
      "two:signature",
      "three:signature",
    ]);
  });

  it("never takes a message changed, moved or put in someone else's name on a digest", async () => {
    const { key, keysOf, at, bob, carol, m1, m2 } = await chainOf();
    const other = await sealSignedMessage(key, at("b-1"), { text: "swapped" }, bob);
    // Another envelope under m1's place: its digest is not the one m2 names, and the signature is m1's.
    const swapped = await openSignedMessages([{ message: m2, place: at("b-2"), key }, { message: { ...m1, envelope: other.envelope }, place: at("b-1"), key }], keysOf, new MessageVouchers());
    expect(summary(swapped)).toEqual(["two:signature", "bad_signature"]);
    // m1 moved to another local id: another digest (and another associated data).
    expect(summary(await openSignedMessages([{ message: m2, place: at("b-2"), key }, { message: m1, place: at("b-9"), key }], keysOf, new MessageVouchers()))).toEqual([
      "two:signature",
      "decrypt_failed",
    ]);
    // Carol names a message "of Bob's" that Bob never signed: it is not Carol's to vouch for.
    const forged = { ...(await sealSignedMessage(key, at("b-7"), { text: "forged" }, bob)), signature: m1.signature };
    const byCarol = await sealSignedMessage(key, at("c-2", 3), { text: "vouching", prev: await signedMessageDigest(forged, at("b-7")) }, carol);
    const result = await openSignedMessages([{ message: byCarol, place: at("c-2", 3), key }, { message: forged, place: at("b-7"), key }], keysOf, new MessageVouchers());
    expect(summary(result)).toEqual(["vouching:signature", "bad_signature"]);
  });

  it("checks a message by its own signature when the newer one that names it is not authentic", async () => {
    const { key, keysOf, at, m1, m2 } = await chainOf();
    const broken = { ...m2, signature: m1.signature };
    expect(summary(await openSignedMessages([{ message: broken, place: at("b-2"), key }, { message: m1, place: at("b-1"), key }], keysOf, new MessageVouchers()))).toEqual([
      "bad_signature",
      "one:signature",
    ]);
    // A sender key id that is not a verified key of the sender's is refused, vouched for or not.
    const vouchers = new MessageVouchers();
    await openSignedMessages([{ message: m2, place: at("b-2"), key }], keysOf, vouchers);
    const carolsKey = (await chainOf()).carol.keyId;
    expect(summary(await openSignedMessages([{ message: { ...m1, senderKeyId: carolsKey }, place: at("b-1"), key }], keysOf, vouchers))).toEqual(["untrusted_key"]);
    // Under another key (another epoch's): decrypt_failed, however it is vouched for.
    expect(summary(await openSignedMessages([{ message: m1, place: at("b-1"), key: await generateSymmetricKey() }], keysOf, vouchers))).toEqual(["decrypt_failed"]);
  });

  it("digests the record the sender signs under its own domain (known answer)", async () => {
    const message = { envelope: "envelope-text", signature: "sig", senderKeyId: "AAECAwQFBgcICQoLDA0ODw", logHead: { seq: 3, hash: "A".repeat(43) } };
    const place: MessagePlaceV2 = { v: 2, conversationId: 42, epoch: 1, senderId: 2, localid: "local-1" };
    const envelopeDigest = createHash("sha256").update("envelope-text").digest("base64url");
    const canonical = `{"conversationId":42,"envelopeDigest":"${envelopeDigest}","epoch":1,"localid":"local-1","logHead":{"hash":"${"A".repeat(43)}","seq":3},"senderId":2,"senderKeyId":"AAECAwQFBgcICQoLDA0ODw","type":"message","v":2}`;
    const expected = createHash("sha256").update(`sealwork/v2/message-digest\n${canonical}`).digest("base64url");
    expect(await signedMessageDigest(message, place)).toBe(expected);
    const group: GroupMessagePlace = { v: 2, groupId: 7, epoch: 0, senderId: 2, localid: "g-1" };
    expect(await signedMessageDigest(message, group)).not.toBe(expected);
    await expectRefusal(signedMessageDigest({ ...message, senderKeyId: "short" }, place), "malformed_record");
  });
});
