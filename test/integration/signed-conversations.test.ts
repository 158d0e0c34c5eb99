import {
  type SignedConversation,
  isCryptoError,
  membershipContainer,
  openEpochLink,
  openSignedConversationKey,
  openSignedMessage,
  sealSignedConversationKey,
  verifyConversationRecord,
  verifyLog,
} from "@sealwork/crypto";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { burst, tally } from "../support/attack";
import { conversationKey, encryptedMessage, reserveConversation, shareGroup, startConversation } from "../support/conversations";
import {
  type Signer,
  addBody,
  adminBody,
  fetchLog,
  leaveBody,
  lookupOf,
  nextEntries,
  postLog,
  rekeyBody,
  signedMessageBody,
  signedStartBody,
  signer,
  startSigned,
} from "../support/signed-conversations";
import { createSession } from "../support/users";

/**
 * Signed distribution over HTTP (issue 11 item 2; docs/api.md, "Signed conversations"): a
 * conversation with its membership log, records, signed key copies and signed messages; adding,
 * removing (with the next epoch), leaving; the migration of a conversation from before logs; bad
 * input refused with stable codes; concurrent appends of which exactly one is stored. The server
 * checks shapes and its own state; each test also verifies what it serves as a client does.
 */

type Json = Record<string, unknown>;

async function people(n: number): Promise<Signer[]> {
  const sessions = await Promise.all(Array.from({ length: n }, (_, i) => createSession({ name: `Person ${i + 1}` })));
  await shareGroup(...sessions);
  return Promise.all(sessions.map((session) => signer(session)));
}

const load = (who: Signer, id: number, query = "") =>
  http<{ protocol: number; epoch: number; needs_rekey: boolean; motes: Json[]; sealed: string; meta: Json | null }>("GET", `/api/conversations/${id}${query}`, { token: who.session.api_token });

const append = (who: Signer, id: number, body: Json) => http<{ mote: Json; code?: string }>("POST", `/api/conversations/${id}/append`, { token: who.session.api_token, body });

describe("signed conversations: starting and reading", () => {
  it("stores the log, the record and the copies; every participant verifies them and opens their copy", async () => {
    const [ann, ben, cem] = await people(3);
    const state = await startSigned(ann!, [ben!, cem!], { title: "Signed" });
    const everyone = lookupOf([ann!, ben!, cem!]);
    for (const person of [ann!, ben!, cem!]) {
      const reply = await fetchLog(person.session, state.id);
      expect(reply.status).toBe(200);
      expect(reply.body.entries).toHaveLength(3);
      expect(reply.body).toMatchObject({ epoch: 0, needs_rekey: false });
      const log = await verifyLog(membershipContainer("conversation", state.id), reply.body.entries, everyone);
      expect(log.members.map((m) => m.userId)).toEqual([ann!, ben!, cem!].map((p) => p.session.id).sort((a, b) => a - b));
      const record = await verifyConversationRecord(reply.body.epochs[0]!.record!, log, everyone);
      const key = await openSignedConversationKey(reply.body.copy!, record, person.me, everyone);
      expect(key).toBeTruthy();
    }
    const page = await load(ben!, state.id, "?meta=1");
    expect(page.body).toMatchObject({ protocol: 2, epoch: 0, needs_rekey: false });
    expect(page.body.meta).toMatchObject({ protocol: 2, epoch: 0 });
    const list = await http<{ conversations: Json[] }>("GET", `/api/users/${cem!.session.id}/conversations`, { token: cem!.session.api_token });
    expect(list.body.conversations.find((c) => c.id === state.id)).toMatchObject({ protocol: 2, epoch: 0 });
  });

  it("refuses a start that does not hold together, with stable codes", async () => {
    const [ann, ben, cem] = await people(3);
    const id = await reserveConversation(ann!.session);
    const { body, state } = await signedStartBody(ann!, [ben!], id);
    const start = (patch: Json) => http<{ code: string }>("POST", "/api/conversations", { token: ann!.session.api_token, body: { ...body, ...patch } });

    // v1 and v2 at once, or half of v2: 422 validation.
    expect((await start({ sealed_keys: [{ user_id: ann!.session.id, sealed: "x" }, { user_id: ben!.session.id, sealed: "y" }] })).status).toBe(422);
    expect((await start({ record: undefined })).body.code).toBe("validation");
    // A log that brings in someone else than the recipients, or not from create.
    const other = await signedStartBody(ann!, [cem!], id);
    expect((await start({ log: other.body.log })).body.code).toBe("log_invalid");
    expect((await start({ log: body.log.slice(1).concat(body.log.slice(1)) })).body.code).toBe("log_invalid");
    expect((await start({ log: [{ record: { type: "membership" }, signature: "x" }, body.log[1]!] })).body.code).toBe("log_invalid");
    // Entries someone else signed: Ben's log presented by Ann.
    const bens = await signedStartBody(ben!, [ann!], id);
    expect((await start({ log: bens.body.log, recipient: ben!.session.id })).body.code).toBe("log_invalid");
    // A record of another head, or naming a ghost participant.
    expect((await start({ record: other.body.record })).body.code).toBe("record_invalid");
    const ghost = structuredClone(body.record) as unknown as SignedConversation;
    ghost.record.participants = [...ghost.record.participants, { userId: cem!.session.id, keyId: cem!.me.keyId }].sort((a, b) => a.userId - b.userId);
    expect((await start({ record: ghost })).body.code).toBe("record_invalid");
    expect((await start({ record: { record: {}, signature: "x" } })).body.code).toBe("record_invalid");
    // Copies: one missing, one sealed by someone else, one that is not a copy.
    expect((await start({ copies: body.copies.slice(0, 1).concat(body.copies.slice(0, 1)) })).body.code).toBe("copies_invalid");
    const bensCopy = await sealSignedConversationKey(state.keys[0]!, state.records[0]!, ben!.key, ben!.me);
    expect((await start({ copies: [body.copies[0], { user_id: ben!.session.id, copy: bensCopy }] })).body.code).toBe("copies_invalid");
    expect((await start({ copies: [body.copies[0], { user_id: ben!.session.id, copy: { sealed: "no" } }] })).body.code).toBe("copies_invalid");
    // None of it stored anything: the reservation still creates the conversation.
    expect((await start({})).status).toBe(200);
  });
});

describe("signed conversations: the people change through the log", () => {
  it("adds a person with their copy; only an admin may, and not through the v1 route", async () => {
    const [ann, ben, cem, dan] = await people(4);
    let state = await startSigned(ann!, [ben!]);
    // Ben is no admin of the log.
    const byBen = await addBody(state, ben!, cem!).catch((error: unknown) => error);
    expect(isCryptoError(byBen, "not_permitted")).toBe(true);
    const forged = await addBody(state, ann!, cem!);
    // Ben relaying entries Ann signed is refused (every entry is the sender's), and Dan is no participant.
    expect((await postLog(ben!.session, state.id, forged.body)).body.code).toBe("log_invalid");
    expect((await postLog(dan!.session, state.id, forged.body)).body.code).toBe("conversation_forbidden");
    // The v1 route does not change a signed conversation's people.
    const v1 = await http<{ code: string }>("POST", `/api/conversations/${state.id}/participate`, { token: ann!.session.api_token, body: { participant: cem!.session.id, sealed: "x" } });
    expect(v1.status).toBe(409);
    expect(v1.body.code).toBe("log_required");

    expect((await load(cem!, state.id)).status).toBe(403);
    const added = await postLog(ann!.session, state.id, forged.body);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ epoch: 0, needs_rekey: false, head: { seq: 2 } });
    state = forged.state;
    // Cem reads now, and opens his copy against the newest record.
    const reply = await fetchLog(cem!.session, state.id);
    const keysOf = lookupOf([ann!, ben!, cem!]);
    const log = await verifyLog(membershipContainer("conversation", state.id), reply.body.entries, keysOf);
    const record = await verifyConversationRecord(reply.body.epochs[0]!.record!, log, keysOf);
    expect(record.logHead.seq).toBe(2);
    await openSignedConversationKey(reply.body.copy!, record, cem!.me, keysOf);
    // Adding him again: the log says he is in.
    const again = await nextEntries({ ...state, entries: state.entries.slice(0, 2), log: await verifyLog(membershipContainer("conversation", state.id), state.entries.slice(0, 2), keysOf) }, ann!, [{ action: "add", subject: cem! }]);
    expect((await postLog(ann!.session, state.id, { entries: again.added })).body.code).toBe("log_conflict");
    // An add without the record or without the copy.
    const danAdd = await addBody(state, ann!, dan!);
    expect((await postLog(ann!.session, state.id, { entries: danAdd.body.entries as Json[] })).body.code).toBe("record_invalid");
    expect((await postLog(ann!.session, state.id, { ...danAdd.body, copies: undefined })).body.code).toBe("copies_invalid");
    expect((await postLog(ann!.session, state.id, { ...danAdd.body, link: "x" })).body.code).toBe("link_invalid");
  });

  it("removes a person with the next epoch: they lose access, the others get the new key and the link back", async () => {
    const [ann, ben, cem] = await people(3);
    let state = await startSigned(ann!, [ben!, cem!], { title: "Before" });
    const old = await signedMessageBody(state, ben!, "old-1", "before the removal");
    expect((await append(ben!, state.id, old)).status).toBe(200);

    // Removing without the rekey, without the link, or without a copy for everyone left: refused.
    const removal = await rekeyBody(state, ann!, [{ action: "remove", subject: cem! }, { action: "rekey", subject: null }], { title: "After" });
    expect((await postLog(ann!.session, state.id, { ...removal.body, link: undefined })).body.code).toBe("link_invalid");
    expect((await postLog(ann!.session, state.id, { ...removal.body, copies: (removal.body.copies as Json[]).slice(0, 1) })).body.code).toBe("copies_invalid");
    const done = await postLog(ann!.session, state.id, removal.body);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ epoch: 1, needs_rekey: false });
    state = removal.state;

    // Cem is out: nothing of the conversation is his to read any more.
    for (const reply of [await load(cem!, state.id), await fetchLog(cem!.session, state.id), await append(cem!, state.id, await signedMessageBody(state, cem!, "late", "x"))]) {
      expect(reply.status).toBe(403);
    }
    // Ben opens epoch 1's copy and walks back to epoch 0's key for the old message.
    const reply = await fetchLog(ben!.session, state.id);
    const keysOf = lookupOf([ann!, ben!, cem!]);
    const log = await verifyLog(membershipContainer("conversation", state.id), reply.body.entries, keysOf);
    const [e0, e1] = reply.body.epochs;
    const record1 = await verifyConversationRecord(e1!.record!, log, keysOf);
    const record0 = await verifyConversationRecord(e0!.record!, log, keysOf);
    const key1 = await openSignedConversationKey(reply.body.copy!, record1, ben!.me, keysOf);
    const key0 = await openEpochLink(key1, e1!.link!, record0);
    const page = await load(ben!, state.id, "?meta=1");
    expect(page.body).toMatchObject({ epoch: 1, protocol: 2 });
    const mote = page.body.motes[0] as { payload: string; signature: string; sender_key_id: string; epoch: number; source_id: number; localid: string };
    expect(mote).toMatchObject({ epoch: 0, sender_key_id: ben!.me.keyId });
    const place = { v: 2 as const, conversationId: state.id, epoch: mote.epoch, senderId: mote.source_id, localid: mote.localid };
    expect(await openSignedMessage(key0, { envelope: mote.payload, signature: mote.signature, senderKeyId: mote.sender_key_id }, place, keysOf)).toEqual({ text: "before the removal" });

    // Messages now go under epoch 1; one for epoch 0 is stale.
    const stale = await append(ben!, state.id, await signedMessageBody(state, ben!, "stale-1", "x", 0));
    expect([stale.status, stale.body.code]).toEqual([409, "epoch_stale"]);
    expect((await append(ben!, state.id, await signedMessageBody(state, ben!, "new-1", "after"))).status).toBe(200);
  });

  it("a person leaves: nobody writes until an admin starts the next epoch", async () => {
    const [ann, ben, cem] = await people(3);
    let state = await startSigned(ann!, [ben!, cem!]);
    const left = await leaveBody(state, cem!);
    // A leave carries nothing else: nobody signed a record for the state after it.
    expect((await postLog(cem!.session, state.id, { ...left.body, record: {} })).body.code).toBe("log_invalid");
    expect((await postLog(cem!.session, state.id, left.body)).body).toMatchObject({ needs_rekey: true, epoch: 0 });
    state = left.state;
    expect((await load(cem!, state.id)).status).toBe(403);
    const page = await load(ben!, state.id);
    expect(page.body.needs_rekey).toBe(true);
    const waiting = await append(ben!, state.id, await signedMessageBody(state, ben!, "wait-1", "x"));
    expect([waiting.status, waiting.body.code]).toEqual([409, "rekey_pending"]);
    // Entries Ann signed are hers to send; she starts the next epoch.
    const bens = await rekeyBody(state, ann!, [{ action: "rekey", subject: null }]);
    expect((await postLog(ben!.session, state.id, bens.body)).body.code).toBe("log_invalid");
    expect((await postLog(ann!.session, state.id, bens.body)).body).toMatchObject({ needs_rekey: false, epoch: 1 });
    state = bens.state;
    expect((await append(ben!, state.id, await signedMessageBody(state, ben!, "go-1", "x"))).status).toBe(200);
  });

  it("makes and unmakes an admin through the log only: never oneself or the author, never by someone who is no admin", async () => {
    const [ann, ben, cem] = await people(3);
    let state = await startSigned(ann!, [ben!, cem!]);
    const participate = (who: Signer, body: Json) => http<{ code: string }>("POST", `/api/conversations/${state.id}/participate`, { token: who.session.api_token, body });
    const adminOf = async (uid: number) => ((await load(ann!, state.id, "?meta=1")).body as unknown as { participants: { user_id: number; admin: boolean }[] }).participants.find((p) => p.user_id === uid)?.admin;
    // The v1 route changes no admin of a signed conversation, either way.
    for (const body of [{ participant: ben!.session.id, admin: true }, { participant: ben!.session.id, unadmin: true }]) {
      expect((await participate(ann!, body)).body.code).toBe("log_required");
    }
    // The poll names the log's head seq, so an open tab sees a change that came with no message.
    const poll = async () => (await http<{ has_new: boolean; log_seq?: number }>("GET", `/api/conversations/${state.id}/poll?largest=0`, { token: cem!.session.api_token })).body;
    expect(await poll()).toEqual({ has_new: false, log_seq: state.log.head.seq });
    const promoted = await adminBody(state, ann!, ben!, "promote");
    expect((await postLog(ann!.session, state.id, promoted.body)).status).toBe(200);
    state = promoted.state;
    expect(await adminOf(ben!.session.id)).toBe(true);
    expect(await poll()).toEqual({ has_new: false, log_seq: state.log.head.seq });
    // Ben, an admin now, may not take the author's rights (the log would allow it; the server keeps its author an admin).
    const ofAnn = await adminBody(state, ben!, ann!, "demote");
    expect((await postLog(ben!.session, state.id, ofAnn.body)).body.code).toBe("unadmin_author");
    // Cem, no admin, cannot demote anyone (his client refuses to sign it; the server too).
    await expect(adminBody(state, cem!, ben!, "demote")).rejects.toSatisfy((error: unknown) => isCryptoError(error, "not_permitted"));
    // Ann demotes Ben: the participant list follows the log, and Ben's next change is refused.
    const demoted = await adminBody(state, ann!, ben!, "demote");
    expect((await postLog(ann!.session, state.id, demoted.body)).status).toBe(200);
    state = demoted.state;
    expect(await adminOf(ben!.session.id)).toBe(false);
    const log = await verifyLog(membershipContainer("conversation", state.id), (await fetchLog(cem!.session, state.id)).body.entries, lookupOf([ann!, ben!, cem!]));
    expect(log.admins).toEqual([ann!.session.id]);
    await expect(adminBody(state, ben!, cem!, "promote")).rejects.toSatisfy((error: unknown) => isCryptoError(error, "not_permitted"));
    // An entry Ann's client would not sign (Cem is no admin) is refused by the server as well
    // (which checks the change, not the signature: that is for the clients).
    const record = { ...state.entries.at(-1)!.record, seq: state.log.head.seq + 1, prev: state.log.head.hash, action: "demote" as const, subject: { userId: cem!.session.id, keyId: cem!.me.keyId }, at: Date.now() };
    const forged = { record, signature: state.entries.at(-1)!.signature };
    expect((await postLog(ann!.session, state.id, { entries: [forged] })).body.code).toBe("log_invalid");
  });

  it("of two appends at the same seq on fresh connections exactly one is stored; the other is 409 log_conflict", async () => {
    const [ann, ben, cem, dan] = await people(4);
    const state = await startSigned(ann!, [ben!]);
    const [withCem, withDan] = await Promise.all([addBody(state, ann!, cem!), addBody(state, ann!, dan!)]);
    const hits = await burst(2, (i) => ({ method: "POST", path: `/api/conversations/${state.id}/log`, token: ann!.session.api_token, body: i === 0 ? withCem.body : withDan.body }));
    expect(tally(hits)).toEqual({ "200": 1, "409 log_conflict": 1 });
    const reply = await fetchLog(ann!.session, state.id);
    expect(reply.body.entries).toHaveLength(3);
    const keysOf = lookupOf([ann!, ben!, cem!, dan!]);
    const log = await verifyLog(membershipContainer("conversation", state.id), reply.body.entries, keysOf);
    // The participants the server lets in are the log's members.
    const winner = hits[0]!.status === 200 ? cem! : dan!;
    const loser = winner === cem ? dan! : cem!;
    expect(log.members.map((m) => m.userId)).toContain(winner.session.id);
    expect((await load(winner, state.id)).status).toBe(200);
    expect((await load(loser, state.id)).status).toBe(403);
  });
});

describe("signed conversations: messages", () => {
  it("stores a member's signature with the message; refuses unsigned ones, and signed ones where nothing is signed", async () => {
    const [ann, ben] = await people(2);
    const state = await startSigned(ann!, [ben!]);
    const body = await signedMessageBody(state, ann!, "m-1", "Grüezi");
    const stored = await append(ann!, state.id, body);
    expect(stored.status).toBe(200);
    expect(stored.body.mote).toMatchObject({ epoch: 0, signature: body.signature, sender_key_id: ann!.me.keyId });
    const unsigned = await append(ann!, state.id, { localid: "m-2", payload: body.payload });
    expect([unsigned.status, unsigned.body.code]).toEqual([422, "message_signature_invalid"]);
    const broken = await append(ann!, state.id, { ...body, localid: "m-3", signature: "not a signature" });
    expect([broken.status, broken.body.code]).toEqual([422, "message_signature_invalid"]);
    const half = await append(ann!, state.id, { localid: "m-4", payload: body.payload, signature: body.signature });
    expect([half.status, half.body.code]).toEqual([422, "validation"]);

    const v1 = await startConversation(ann!.session, [ben!.session]);
    const payload = await encryptedMessage(v1.key, v1.id, ann!.session.id, "v1-1", "plain");
    const signedInV1 = await append(ann!, v1.id, { ...body, localid: "v1-1", payload });
    expect([signedInV1.status, signedInV1.body.code]).toEqual([422, "message_signature_invalid"]);
    expect((await append(ann!, v1.id, { localid: "v1-2", payload })).status).toBe(200);
    const page = await load(ann!, v1.id);
    expect(page.body).toMatchObject({ protocol: 1, epoch: 0 });
    expect(page.body.motes[0]).toMatchObject({ epoch: null, signature: null, sender_key_id: null });
  });

  it("stores and serves the log head a message names with it (absent without one); a head without a signature, or not a head, is refused", async () => {
    const [ann, ben] = await people(2);
    const state = await startSigned(ann!, [ben!]);
    const body = await signedMessageBody(state, ann!, "h-1", "with my head", state.log.epoch, true);
    expect(body.log_head).toEqual(state.log.head);
    expect((await append(ann!, state.id, body)).body.mote).toMatchObject({ log_head: state.log.head, signature: body.signature });
    const without = await append(ann!, state.id, await signedMessageBody(state, ann!, "h-2", "without"));
    expect(without.body.mote).not.toHaveProperty("log_head");
    const served = (await load(ben!, state.id)).body.motes as Json[];
    expect(served.map((m) => m.log_head)).toEqual([state.log.head, undefined]);
    const unsigned = await append(ann!, state.id, { localid: "h-3", payload: body.payload, log_head: state.log.head });
    expect([unsigned.status, unsigned.body.code]).toEqual([422, "validation"]);
    for (const log_head of [{ seq: -1, hash: state.log.head.hash }, { seq: 0, hash: "short" }, { ...state.log.head, extra: 1 }]) {
      const bad = await append(ann!, state.id, { ...body, localid: `h-bad-${log_head.seq}-${"extra" in log_head}`, log_head });
      expect([bad.status, bad.body.code]).toEqual([422, "validation"]);
    }
  });
});

describe("signed conversations: the migration of a conversation from before logs", () => {
  it("a participant who may change its people starts its log with everyone as they are; the others cannot, nor twice", async () => {
    const [ann, ben, cem] = await people(3);
    const key = await conversationKey();
    const v1 = await startConversation(ann!.session, [ben!.session, cem!.session], { key });
    const made = await signedStartBody(ann!, [ben!, cem!], v1.id, { key });
    // Ben is no admin of it; a log that leaves Cem out does not match.
    const bens = await signedStartBody(ben!, [ann!, cem!], v1.id, { key });
    expect((await postLog(ben!.session, v1.id, { entries: bens.body.log, record: bens.body.record, copies: bens.body.copies })).body.code).toBe("administrate_forbidden");
    const partial = await signedStartBody(ann!, [ben!], v1.id, { key });
    expect((await postLog(ann!.session, v1.id, { entries: partial.body.log, record: partial.body.record, copies: partial.body.copies })).body.code).toBe("log_invalid");

    const migrated = await postLog(ann!.session, v1.id, { entries: made.body.log, record: made.body.record, copies: made.body.copies });
    expect(migrated.status).toBe(200);
    expect(migrated.body).toMatchObject({ epoch: 0, head: { seq: 2 } });
    expect((await load(ben!, v1.id)).body.protocol).toBe(2);
    const reply = await fetchLog(cem!.session, v1.id);
    const keysOf = lookupOf([ann!, ben!, cem!]);
    const log = await verifyLog(membershipContainer("conversation", v1.id), reply.body.entries, keysOf);
    const record = await verifyConversationRecord(reply.body.epochs[0]!.record!, log, keysOf);
    await openSignedConversationKey(reply.body.copy!, record, cem!.me, keysOf);
    // The second start loses: the log exists.
    expect((await postLog(ann!.session, v1.id, { entries: made.body.log, record: made.body.record, copies: made.body.copies })).body.code).toBe("log_conflict");
    // From now on messages are signed.
    expect((await append(ann!, v1.id, { localid: "after-1", payload: await encryptedMessage(key, v1.id, ann!.session.id, "after-1", "x") })).body.code).toBe("message_signature_invalid");
  });
});
