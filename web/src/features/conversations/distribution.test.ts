import {
  type ConversationRecord,
  type IdentityKeys,
  type Key,
  type KeyRef,
  type KeysOf,
  type SignedConversation,
  type SignedMembershipEntry,
  type VerifiedKey,
  type VerifiedLog,
  accountPublicKeys,
  appendToLog,
  createConversationRecord,
  createLog,
  generateAccountKeys,
  generateSymmetricKey,
  identityKeys,
  membershipContainer,
  sealEpochLink,
  sealFor,
  sealMessage,
  sealSignedConversationKey,
  sealSignedMessage,
  serializeEnvelope,
  openMessage,
  signedMessageDigest,
  exportSymmetricKey,
  conversationKeyContext,
  verifyLog,
} from "@sealwork/crypto";
import { describe, expect, it, vi } from "vitest";

// Texts are their keys; the trust module is only asked whether a failure was the network's.
vi.mock("../../lib/i18n", () => ({ i18next: { t: (key: string) => key }, addTranslations: () => undefined }));
vi.mock("../../lib/trust", () => ({ TrustError: class TrustError extends Error {} }));

const { DistributionError, headCheck, verifyDistribution } = await import("./distribution");
const { openRingMessages, openWithRing, sealForRing } = await import("./message-crypto");
type LogReply = import("./distribution").LogReply;

/**
 * The checks a member's browser makes before using a v2 conversation's key (distribution.ts), and
 * how each message shows (message-crypto.ts, openWithRing): conversation 42 of Ann (1, its
 * author), Ben (2) and Cem (3); Mal (4) is someone else of the instance.
 */

const ID = 42;
const container = membershipContainer("conversation", ID);
const json = <T>(value: T) => value as unknown as Record<string, unknown>;

interface Person {
  me: IdentityKeys;
  key: VerifiedKey;
}

async function person(userId: number): Promise<Person> {
  const keys = await generateAccountKeys();
  const me = await identityKeys(userId, keys);
  const pub = await accountPublicKeys(keys);
  return { me, key: { userId, keyId: me.keyId, seq: 0, ...pub, created: 0 } };
}

const ref = (p: Person): KeyRef => ({ userId: p.me.userId, keyId: p.me.keyId });

function lookup(people: Person[]): KeysOf {
  const keys = new Map(people.map((p) => [`${p.key.userId}:${p.key.keyId}`, p.key]));
  return async (userId, keyId) => {
    const key = keys.get(`${userId}:${keyId}`);
    if (!key) throw new Error("unknown key");
    return key;
  };
}

async function setting() {
  const [ann, ben, cem, mal] = await Promise.all([person(1), person(2), person(3), person(4)]);
  const keysOf = lookup([ann, ben, cem, mal]);
  const entries: SignedMembershipEntry[] = [await createLog(container, ann.me, 1)];
  for (const p of [ben, cem]) entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: "add", subject: ref(p), at: 2 }, ann.me));
  const log = await verifyLog(container, entries, keysOf);
  const key = await generateSymmetricKey();
  const signed = await createConversationRecord(key, [ref(ann), ref(ben), ref(cem)], log, ann.me);
  const copy = (to: Person, sealer = ann, record: ConversationRecord = signed.record, k: Key = key) => sealSignedConversationKey(k, record, to.key, sealer.me);
  const reply = async (to: Person, patch: Partial<LogReply> = {}): Promise<LogReply> => ({
    entries: entries.map(json),
    epochs: [{ epoch: 0, record: json(signed), link: null }],
    copy: json(await copy(to)),
    epoch: 0,
    needs_rekey: false,
    ...patch,
  });
  return { ann, ben, cem, mal, keysOf, entries, log, key, signed, copy, reply };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DistributionError);
    return (error as InstanceType<typeof DistributionError>).reason;
  }
  throw new Error("expected a refusal");
}

describe("verifyDistribution", () => {
  it("opens a participant's copy after the log, the record and the copy verify, and remembers nothing of its own", async () => {
    const s = await setting();
    const ring = await verifyDistribution(ID, await s.reply(s.ben), s.ben.me, s.keysOf);
    expect(ring.epoch).toBe(0);
    expect(ring.writable).toBe(true);
    expect(ring.log.members.map((m) => m.userId)).toEqual([1, 2, 3]);
    expect(await exportSymmetricKey(ring.key)).toEqual(await exportSymmetricKey(s.key));
    // With the head it saw before, too.
    await verifyDistribution(ID, await s.reply(s.ben), s.ben.me, s.keysOf, s.log.history[1]!.head);
  });

  it("refuses a fork and a rollback of the log it remembers (log_fork)", async () => {
    const s = await setting();
    // Another history: the server shows Cem's add to one person and Mal's to another.
    const forked = [...s.entries.slice(0, 2), await appendToLog(await verifyLog(container, s.entries.slice(0, 2), s.keysOf), { action: "add", subject: ref(s.mal), at: 2 }, s.ann.me)];
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { entries: forked.map(json) }), s.ben.me, s.keysOf, s.log.head))).toBe("log_fork");
    // An older log than the head remembered.
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { entries: s.entries.slice(0, 2).map(json) }), s.ben.me, s.keysOf, s.log.head))).toBe("log_fork");
  });

  it("refuses a log with an entry nobody with the right signed (log_invalid)", async () => {
    const s = await setting();
    const tampered = structuredClone(s.entries);
    tampered[2]!.record.subject = ref(s.mal);
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { entries: tampered.map(json) }), s.ben.me, s.keysOf))).toBe("log_invalid");
  });

  it("refuses a record that names a ghost participant, or that is not signed by its author", async () => {
    const s = await setting();
    const ghost = structuredClone(s.signed) as SignedConversation;
    ghost.record.participants = [...ghost.record.participants, ref(s.mal)];
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { epochs: [{ epoch: 0, record: json(ghost), link: null }] }), s.ben.me, s.keysOf))).toBe("ghost_participant");
    const forged = structuredClone(s.signed) as SignedConversation;
    forged.record.keyCommitment = s.signed.record.keyCommitment.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { epochs: [{ epoch: 0, record: json(forged), link: null }] }), s.ben.me, s.keysOf))).toBe("record_invalid");
  });

  it("refuses a copy injected by someone who is not a participant, a copy of another person, and a key other than the committed one (copy_invalid)", async () => {
    const s = await setting();
    // Mal signs a copy for Ben (against a record he made up to name himself): he is no participant.
    const injectedKey = await generateSymmetricKey();
    const malCopy = await sealSignedConversationKey(s.key, { ...s.signed.record, participants: [...s.signed.record.participants, ref(s.mal)] }, s.ben.key, s.mal.me);
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { copy: json(malCopy) }), s.ben.me, s.keysOf))).toBe("copy_invalid");
    // Cem's copy served to Ben.
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { copy: json(await s.copy(s.cem)) }), s.ben.me, s.keysOf))).toBe("copy_invalid");
    // A participant (Ann) who seals another key for Ben than the record commits to.
    const raw = await exportSymmetricKey(injectedKey);
    const other = serializeEnvelope(await sealFor(s.ben.me.keys.encrypt.publicKey, raw, { context: conversationKeyContext(ID, 0) }));
    const honest = await s.copy(s.ben);
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { copy: json({ ...honest, sealed: other }) }), s.ben.me, s.keysOf))).toBe("copy_invalid");
    // No copy at all.
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben, { copy: null }), s.ben.me, s.keysOf))).toBe("copy_invalid");
  });

  it("a record that seals for a key of one's own one no longer holds is key_moved; an admin's next epoch gives the new key everything again", async () => {
    const s = await setting();
    // Ben's key was reset: he holds new keys; his verified chain has both.
    const benNow = await person(2);
    const keysOf = lookup([s.ann, s.ben, benNow, s.cem, s.mal]);
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben), benNow.me, keysOf))).toBe("key_moved");
    // The refusal names the epoch whose record has the old key: the page looks for a later one (key-wait.ts).
    expect(await verifyDistribution(ID, await s.reply(s.ben), benNow.me, keysOf).catch((error: InstanceType<typeof DistributionError>) => error.epoch)).toBe(0);
    // Someone the record does not name at all is still refused as before.
    expect(await refusal(verifyDistribution(ID, await s.reply(s.ben), s.mal.me, keysOf))).toBe("copy_invalid");
    // Ann renews the key: a rekey entry, the record naming Ben's new key, his copy, the link to epoch 0.
    const entries = [...s.entries, await appendToLog(s.log, { action: "rekey", subject: null, at: 3 }, s.ann.me)];
    const log = await verifyLog(container, entries, keysOf);
    const key1 = await generateSymmetricKey();
    const signed1 = await createConversationRecord(key1, [ref(s.ann), ref(benNow), ref(s.cem)], log, s.ann.me);
    const reply: LogReply = {
      entries: entries.map(json),
      epochs: [
        { epoch: 0, record: json(s.signed), link: null },
        { epoch: 1, record: json(signed1), link: await sealEpochLink(key1, s.key, { conversationId: ID, epoch: 1 }) },
      ],
      copy: json(await sealSignedConversationKey(key1, signed1.record, benNow.key, s.ann.me)),
      epoch: 1,
      needs_rekey: false,
    };
    const ring = await verifyDistribution(ID, reply, benNow.me, keysOf);
    expect(await exportSymmetricKey(await ring.keyFor(0))).toEqual(await exportSymmetricKey(s.key));
  });

  it("walks back through the epochs after a removal; the removed person has no copy of the new key", async () => {
    const s = await setting();
    const entries = [...s.entries];
    for (const change of [{ action: "remove" as const, subject: ref(s.cem) }, { action: "rekey" as const, subject: null }]) {
      entries.push(await appendToLog(await verifyLog(container, entries, s.keysOf), { ...change, at: 3 }, s.ann.me));
    }
    const log = await verifyLog(container, entries, s.keysOf);
    const key1 = await generateSymmetricKey();
    const signed1 = await createConversationRecord(key1, [ref(s.ann), ref(s.ben)], log, s.ann.me);
    const link = await sealEpochLink(key1, s.key, { conversationId: ID, epoch: 1 });
    const reply: LogReply = {
      entries: entries.map(json),
      epochs: [
        { epoch: 0, record: json(s.signed), link: null },
        { epoch: 1, record: json(signed1), link },
      ],
      copy: json(await sealSignedConversationKey(key1, signed1.record, s.ben.key, s.ann.me)),
      epoch: 1,
      needs_rekey: false,
    };
    const ring = await verifyDistribution(ID, reply, s.ben.me, s.keysOf);
    expect(ring.epoch).toBe(1);
    expect(await exportSymmetricKey(await ring.keyFor(0))).toEqual(await exportSymmetricKey(s.key));
    expect([...ring.membersOf(0)].sort()).toEqual([1, 2, 3]);
    expect([...ring.membersOf(1)].sort()).toEqual([1, 2]);
    // Cem is no participant of epoch 1: no copy of it opens for him.
    expect(await refusal(verifyDistribution(ID, { ...reply, copy: json(await sealSignedConversationKey(key1, signed1.record, s.ben.key, s.ann.me)) }, s.cem.me, s.keysOf))).toBe("copy_invalid");
    // A link that carries another key than epoch 0's record commits to is refused when used.
    const badLink = await sealEpochLink(key1, await generateSymmetricKey(), { conversationId: ID, epoch: 1 });
    const bad = await verifyDistribution(ID, { ...reply, epochs: [reply.epochs[0]!, { ...reply.epochs[1]!, link: badLink }] }, s.ben.me, s.keysOf);
    expect(await refusal(bad.keyFor(0))).toBe("copy_invalid");
  });
});

describe("openWithRing: how each message shows", () => {
  it("a signed message is its sender's; moved, re-attributed or altered it is nobody's; v1 and guest messages say what they are", async () => {
    const s = await setting();
    const ring = await verifyDistribution(ID, await s.reply(s.ann), s.ann.me, s.keysOf);
    const place = { v: 2 as const, conversationId: ID, epoch: 0, senderId: 2, localid: "m-1" };
    const signed = await sealSignedMessage(s.key, place, { text: "from Ben" }, s.ben.me);
    const mote = { source_id: 2, localid: "m-1", payload: signed.envelope, epoch: 0, signature: signed.signature, sender_key_id: signed.senderKeyId };
    expect(await openWithRing(ring, mote)).toEqual({ payload: { text: "from Ben" }, verification: "signed" });
    // The server names Cem as its sender, or gives it another local id: the signature fails.
    expect(await openWithRing(ring, { ...mote, source_id: 3 })).toEqual({ payload: null, verification: "invalid" });
    expect(await openWithRing(ring, { ...mote, localid: "m-2" })).toEqual({ payload: null, verification: "invalid" });
    // Mal (no member) signs a message with the key he somehow has: not his to sign here.
    const byMal = await sealSignedMessage(s.key, { ...place, senderId: 4 }, { text: "hi" }, s.mal.me);
    expect((await openWithRing(ring, { ...mote, source_id: 4, payload: byMal.envelope, signature: byMal.signature, sender_key_id: byMal.senderKeyId })).verification).toBe("invalid");
    // Stripped of its signature: members sign, so it is nobody's.
    expect((await openWithRing(ring, { ...mote, signature: null, sender_key_id: null })).verification).toBe("invalid");
    // A message from before the log (v1, no epoch) and a guest's open as what they are.
    const v1 = await sealMessage(s.key, { conversationId: ID, senderId: 2, localid: "old-1" }, { text: "old" });
    expect(await openWithRing(ring, { source_id: 2, localid: "old-1", payload: v1, epoch: null, signature: null, sender_key_id: null })).toEqual({ payload: { text: "old" }, verification: "unsigned" });
    const guest = await sealMessage(s.key, { v: 2, conversationId: ID, epoch: 0, senderId: 0, localid: "g-1" }, { text: "Danke" });
    expect(await openWithRing(ring, { source_id: 0, localid: "g-1", payload: guest, epoch: 0, signature: null, sender_key_id: null })).toEqual({ payload: { text: "Danke" }, verification: "guest" });
  });
});

describe("openRingMessages: a page opened newest first, each message vouched for by its sender's next one", () => {
  it("chains one's messages as they are sent; a reader checks the newest signature and takes the older ones on the digests", async () => {
    const s = await setting();
    const bens = await verifyDistribution(ID, await s.reply(s.ben), s.ben.me, s.keysOf);
    const motes: Parameters<typeof openRingMessages>[1][number][] = [];
    for (const [i, text] of ["one", "two", "three"].entries()) {
      const body = await sealForRing(bens, s.ben.me, `b-${i + 1}`, { text });
      const mote = { id: 10 + i, source_id: 2, localid: `b-${i + 1}`, payload: body.payload, epoch: body.epoch, signature: body.signature, sender_key_id: body.sender_key_id, log_head: body.log_head };
      // The sender opens what the server stored (as sending does): it is now his newest.
      await openRingMessages(bens, [mote]);
      motes.push(mote);
      // A message the server refuses is sealed, never stored: the next one does not name it.
      if (i === 0) await sealForRing(bens, s.ben.me, "b-lost", { text: "lost" });
    }
    // Each names the one before it, inside what Ben signs.
    const place = (localid: string) => ({ v: 2 as const, conversationId: ID, epoch: 0, senderId: 2, localid });
    const digestOf = (m: (typeof motes)[number]) => signedMessageDigest({ envelope: m.payload, signature: m.signature!, senderKeyId: m.sender_key_id!, ...(m.log_head ? { logHead: m.log_head } : {}) }, place(m.localid!));
    expect((await openMessage(s.key, motes[1]!.payload, place("b-2"))).prev).toBe(await digestOf(motes[0]!));
    expect((await openMessage(s.key, motes[0]!.payload, place("b-1"))).prev).toBeUndefined();

    // Ann opens the newest page (b-3 alone), then the older one: b-2 and b-1 are vouched for, in the order the page lists them.
    const anns = await verifyDistribution(ID, await s.reply(s.ann), s.ann.me, s.keysOf);
    expect(await openRingMessages(anns, [motes[2]!])).toEqual([{ payload: { text: "three" }, verification: "signed" }]);
    expect(anns.chain.vouchers.has(2, await digestOf(motes[1]!))).toBe(true);
    expect(await openRingMessages(anns, [motes[0]!, motes[1]!])).toEqual([
      { payload: { text: "one" }, verification: "signed" },
      { payload: { text: "two" }, verification: "signed" },
    ]);
    // An older message swapped for another of Ben's envelopes is not the one named: its own signature fails.
    const swapped = { ...motes[0]!, payload: motes[1]!.payload };
    const fresh = await verifyDistribution(ID, await s.reply(s.ann), s.ann.me, s.keysOf);
    expect(await openRingMessages(fresh, [swapped, motes[1]!, motes[2]!])).toEqual([
      { payload: null, verification: "invalid" },
      { payload: { text: "two" }, verification: "signed" },
      { payload: { text: "three" }, verification: "signed" },
    ]);
    // Ben's ring, opened afresh, learns his newest message from the page and names it in his next one.
    const again = await verifyDistribution(ID, await s.reply(s.ben), s.ben.me, s.keysOf);
    await openRingMessages(again, motes);
    const next = await sealForRing(again, s.ben.me, "b-4", { text: "four" });
    expect((await openMessage(s.key, next.payload, place("b-4"))).prev).toBe(await digestOf(motes[2]!));
  });
});

describe("openWithRing: the log head a message names (docs/protocol.md §14.8, heads in messages)", () => {
  /** Ann's ring of the log create, add Ben, add Cem, with the head check; `served` is what fetching the log again gives. */
  async function headScene() {
    const s = await setting();
    const ring = await verifyDistribution(ID, await s.reply(s.ann), s.ann.me, s.keysOf);
    const fetched: VerifiedLog[] = [];
    let served: () => Promise<VerifiedLog> = async () => s.log;
    const checked = { ...ring, checkHead: headCheck(ring.log, async (log) => {
      fetched.push(log);
      return served();
    }) };
    /** The log after one more entry by Ann: Cem or Ben promoted (two histories with the same seq). */
    const promoted = async (who: Person) => verifyLog(container, [...s.entries, await appendToLog(s.log, { action: "promote", subject: ref(who), at: 3 }, s.ann.me)], s.keysOf);
    /** Ben's message of epoch 0 naming `head`, as the server serves it. */
    const fromBen = async (localid: string, head?: VerifiedLog["head"]) => {
      const signed = await sealSignedMessage(s.key, { v: 2, conversationId: ID, epoch: 0, senderId: 2, localid }, { text: localid }, s.ben.me, head);
      return { source_id: 2, localid, payload: signed.envelope, epoch: 0, signature: signed.signature, sender_key_id: signed.senderKeyId, ...(signed.logHead ? { log_head: signed.logHead } : {}) };
    };
    return { s, ring: checked, fetched, promoted, fromBen, serve: (next: () => Promise<VerifiedLog>) => (served = next) };
  }

  it("the head of the reader's log, or none (a message signed before heads were exchanged), is verified as before", async () => {
    const { s, ring, fetched, fromBen } = await headScene();
    expect(await openWithRing(ring, await fromBen("same", s.log.head))).toEqual({ payload: { text: "same" }, verification: "signed" });
    expect(await openWithRing(ring, await fromBen("earlier", s.log.history[1]!.head))).toEqual({ payload: { text: "earlier" }, verification: "signed" });
    expect(await openWithRing(ring, await fromBen("old"))).toEqual({ payload: { text: "old" }, verification: "signed" });
    expect(fetched).toEqual([]);
  });

  it("a head beyond the reader's log: the log is fetched again (once for messages opened together) and the head found there", async () => {
    const { s, ring, fetched, promoted, fromBen, serve } = await headScene();
    const bens = await promoted(s.cem);
    serve(async () => bens);
    const [a, b] = await Promise.all([openWithRing(ring, await fromBen("a", bens.head)), openWithRing(ring, await fromBen("b", bens.head))]);
    expect([a.verification, b.verification]).toEqual(["signed", "signed"]);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.head).toEqual(s.log.head);
  });

  it("another history at the same seq, or a head the log fetched again still lacks, is a fork: the conversation is refused (log_fork)", async () => {
    const { s, ring, promoted, fromBen, serve } = await headScene();
    const [bens, anns] = [await promoted(s.cem), await promoted(s.ben)];
    // Ben was shown Cem promoted; the server serves Ann the history with Ben promoted.
    serve(async () => anns);
    expect(await refusal(openWithRing(ring, await fromBen("fork", bens.head)))).toBe("log_fork");
    // Beyond, and the server keeps withholding it from Ann.
    const { ring: again, fromBen: ben2, serve: serve2 } = await headScene();
    serve2(async () => again.log);
    expect(await refusal(openWithRing(again, await ben2("withheld", bens.head)))).toBe("log_fork");
  });

  it("a head stripped, added or changed on the way fails the signature: not verified", async () => {
    const { s, ring, promoted, fromBen } = await headScene();
    const { log_head: _head, ...stripped } = await fromBen("stripped", s.log.head);
    expect((await openWithRing(ring, stripped)).verification).toBe("invalid");
    expect((await openWithRing(ring, { ...(await fromBen("added")), log_head: s.log.head })).verification).toBe("invalid");
    const other = await promoted(s.cem);
    expect((await openWithRing(ring, { ...(await fromBen("changed", s.log.head)), log_head: other.history[1]!.head })).verification).toBe("invalid");
  });
});
