import { logAppend } from "@sealwork/contracts/conversation-logs";
import type * as z from "zod";
import { type Actor, can } from "../access";
import { type TransactionEntities, db, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { getUsers } from "../user/read";
import { type Member, access, membersOf } from "./access";
import type { ConversationItem, ParticipantItem } from "./entities";
import { type CheckedCopy, type LogState, type Replayed, EMPTY_LOG, checkCopies, checkRecord, memberIds, replay, storedLog } from "./log";
import { assertContact } from "./participants";
import { attribution, participantViews } from "./views";
import "./entities";
import "./errors";
import "../pickup/errors";

/**
 * A conversation's membership log, records and key copies (protocol v2, docs/protocol.md §14.8;
 * docs/api.md, "Signed conversations"): reading them all at once, and appending entries with what
 * they need. Every change of the people of a conversation with a log goes through here, so the
 * participants the server lets in are the log's members.
 */

/** Every entry of the log, seq 0 first. */
async function entriesOf(conversationId: number): Promise<unknown[]> {
  const { data } = await db().entities.logentries.query.byConversation({ conversationId }).go({ pages: "all" });
  return data.sort((a, b) => a.first - b.first).flatMap((chunk) => JSON.parse(chunk.entries) as unknown[]);
}

/** GET /api/conversations/{id}/log: the log, each epoch's newest record and link, and the caller's copy. */
export async function log(actor: Actor, id: number) {
  const { conversation, participant } = await access(actor, id, "read");
  if (conversation.logSeq === undefined) return { entries: [], epochs: [], copy: null, epoch: 0, needs_rekey: false };
  const [entries, { data: epochs }] = await Promise.all([entriesOf(id), db().entities.conversationepoch.query.byConversation({ conversationId: id }).go({ pages: "all" })]);
  return {
    entries: entries as Record<string, unknown>[],
    epochs: epochs
      .sort((a, b) => a.epoch - b.epoch)
      .map((e) => ({ epoch: e.epoch, record: e.record ? (JSON.parse(e.record) as Record<string, unknown>) : null, link: e.link ?? null })),
    copy: participant.copy ? (JSON.parse(participant.copy) as Record<string, unknown>) : null,
    epoch: conversation.epoch ?? 0,
    needs_rekey: conversation.needsRekey ?? false,
  };
}

/** What a batch needs beside its entries, checked: the record's JSON, the copies by user, the link and the title. */
interface Extras {
  record?: string;
  copies: Map<number, CheckedCopy>;
  link?: string;
  title?: string;
}

/**
 * The record, copies, link and title a batch needs (docs/api.md): a record for the new head
 * unless a rekey is pending after it (optional for promotions alone); copies for everyone when it
 * starts the log or an epoch, else for the people it adds; the previous epoch's key carried by a
 * new epoch's; a title sealed anew only with a new epoch.
 */
function extras(conversationId: number, done: Replayed, input: z.infer<typeof logAppend>, actor: number): Extras {
  const { state } = done;
  const changesPeople = done.created || done.rekeyed || done.added.length > 0;
  if (state.needsRekey && (input.record !== undefined || input.copies !== undefined || done.added.length > 0)) {
    fail("log_invalid", { message: "Someone left or was removed: the next entry is a rekey, with the new record and copies." });
  }
  if (!state.needsRekey && changesPeople && input.record === undefined) fail("record_invalid", { message: "A change of the people comes with the record for it." });
  const record = input.record === undefined ? undefined : checkRecord(conversationId, state, input.record, actor);
  const receivers = done.created || done.rekeyed ? memberIds(state) : done.added.filter((uid) => state.members.some((m) => m.u === uid));
  const copies = input.copies === undefined && receivers.length === 0 ? new Map<number, CheckedCopy>() : checkCopies(input.copies, receivers, actor);
  const needsLink = done.rekeyed && state.epoch > 0;
  if (needsLink !== (input.link !== undefined)) fail("link_invalid");
  if (input.title !== undefined && !done.rekeyed) fail("title_invalid", { message: "A title is sealed anew only for a new epoch; rename it otherwise." });
  return {
    record,
    copies,
    link: input.link === undefined ? undefined : envelopeText(input.link, "aead", "link_invalid"),
    title: input.title === undefined ? undefined : envelopeText(input.title, "aead", "title_invalid"),
  };
}

/**
 * POST /api/conversations/{id}/log: entries that continue the log (or, for a conversation from
 * before logs, start it: the migration), with their record, copies and link, in one transaction
 * that is conditional on the stored head, so of two appends at the same seq exactly one is stored
 * and the other is log_conflict.
 */
export async function appendLog(actor: Actor, id: number, body: z.input<typeof logAppend>) {
  const input = valid(logAppend, body);
  const a = await access(actor, id, "read", "conversation_forbidden");
  // A pickup's people are its creator and its guest, who has no identity key to be in a log.
  if (a.resource.pickup) fail("pickup_participants");
  const members = await membersOf(a.conversation);
  const migrating = a.conversation.logSeq === undefined;
  // Starting the log of an existing conversation is for those who may change its people.
  if (migrating && !can(actor, "manage", a.resource)) fail("administrate_forbidden");
  const start = migrating ? EMPTY_LOG : storedLog(a.conversation, members);
  const done = await replay(id, a.conversation.authorId, start, input.entries, a.me.uid);
  if (migrating) checkMigration(done, members);
  if (done.added.length > 0) {
    const users = await getUsers(done.added);
    if (done.added.some((uid) => !users.has(uid))) fail("user_not_found");
    await assertContact(a.me, done.added);
  }
  const extra = extras(id, done, input, a.me.uid);
  await store(a.conversation, a.conversation.membersVersion ?? 0, start, done, extra, members);
  return {
    participants: participantViews(done.state.members),
    attrib: await attribution(done.state.members.map((m) => m.u)),
    head: { seq: done.state.seq, hash: done.state.hash },
    epoch: done.state.epoch,
    needs_rekey: done.state.needsRekey,
  };
}

/**
 * A conversation's first log must name the people it has: create, an add for each other
 * participant, a promote for each admin (who stay admins); nothing removed, no new epoch (the
 * key stays the one its copies hold).
 */
function checkMigration(done: Replayed, members: Member[]): void {
  const ids = (list: Member[]) => list.map((m) => m.u).sort((x, y) => x - y).join();
  if (!done.created || done.removed.length > 0 || done.rekeyed || ids(done.state.members) !== ids(members)) {
    fail("log_invalid", { message: "The first log of a conversation names its people as they are." });
  }
  const admins = new Set(done.state.members.filter((m) => m.a).map((m) => m.u));
  if (members.some((m) => m.a && !admins.has(m.u))) fail("log_invalid", { message: "Every admin of the conversation stays one." });
}

/** Writes the batch: the entries, the conversation's head and people, each touched participant, the epoch's record and link. */
async function store(conversation: ConversationItem, version: number, start: LogState, done: Replayed, extra: Extras, before: Member[]): Promise<void> {
  const id = conversation.id;
  const now = Date.now();
  const { state } = done;
  const existing = new Set(before.map((m) => m.u));
  const { canceled, reasons } = await writeTransaction((tx) => [
    tx.conversation
      .patch({ id })
      .set({
        logSeq: state.seq,
        logHash: state.hash,
        epoch: state.epoch,
        needsRekey: state.needsRekey,
        members: state.members,
        activity: now,
        ...(done.added.length > 0 ? { multiple: true } : {}),
        ...(extra.title ? { title: extra.title } : {}),
      })
      .add({ membersVersion: 1 })
      .where((attr, op) => `${start.seq === -1 ? op.notExists(attr.logSeq) : op.eq(attr.logSeq, start.seq)} AND ${op.eq(attr.membersVersion, version)}`)
      .commit(),
    tx.logentries.create({ conversationId: id, first: start.seq + 1, count: done.entries.length, entries: JSON.stringify(done.entries) }).commit(),
    ...participantWrites(tx, id, done, extra, existing, now),
    ...(done.created || done.rekeyed
      ? [tx.conversationepoch.put({ conversationId: id, epoch: state.epoch, record: extra.record, link: extra.link }).commit()]
      : extra.record
        ? [tx.conversationepoch.patch({ conversationId: id, epoch: state.epoch }).set({ record: extra.record }).commit()]
        : []),
  ]);
  if (!canceled) return;
  if (reasons[0] === "ConditionalCheckFailed" || reasons[1] === "ConditionalCheckFailed") fail("log_conflict");
  if (reasons.includes("ConditionalCheckFailed")) fail("log_conflict");
  throw new Error(`appending to the log of ${id} was cancelled: ${reasons.join(",")}`);
}

/** One write per participant the batch touches (a transaction names each item once). */
function participantWrites(tx: TransactionEntities, id: number, done: Replayed, extra: Extras, existing: Set<number>, now: number) {
  const writes = [];
  for (const uid of done.removed) {
    if (existing.has(uid) && !done.state.members.some((m) => m.u === uid)) {
      writes.push(tx.participant.delete({ conversationId: id, userId: uid }).where((attr, op) => op.exists(attr.userId)).commit());
    }
  }
  for (const member of done.state.members) {
    const copy = extra.copies.get(member.u);
    if (!existing.has(member.u)) {
      const item: ParticipantItem = { conversationId: id, userId: member.u, admin: member.a, sealedKey: copy!.sealed, copy: copy!.copy, joinedAt: now, lastVisit: 0, lastSeenMote: 0, archived: false };
      writes.push(tx.participant.create(item).commit());
    } else if (copy || done.promoted.includes(member.u) || done.demoted.includes(member.u)) {
      writes.push(
        tx.participant
          .patch({ conversationId: id, userId: member.u })
          .set({ admin: member.a, ...(copy ? { sealedKey: copy.sealed, copy: copy.copy } : {}) })
          .commit(),
      );
    }
  }
  return writes;
}
