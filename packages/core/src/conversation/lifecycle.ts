import { SIGNED_PARTICIPANTS_MAX, newConversation, ownKeyBody, renameBody, type ConversationView } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, requireMember } from "../access";
import { nextId } from "../db/counter";
import { cancellationReasons, db, type TransactionEntities, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { Queue } from "../queue";
import { getUsers } from "../user/read";
import { access, find } from "./access";
import type { ConversationItem, ParticipantItem } from "./entities";
import { type CheckedCopy, EMPTY_LOG, checkCopies, checkRecord, memberIds, replay } from "./log";
import { assertContact } from "./participants";
import { describe, protocolOf, view } from "./views";
import "./entities";
import "./errors";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** How long a reserved conversation id waits for its conversation. */
export const RESERVATION_SECONDS = 3600;

/** POST /api/conversations/reserve: a fresh id, to be created by the actor within the hour. */
export async function reserve(actor: Actor) {
  const me = requireMember(actor);
  const id = await nextId("conversation");
  const expires = nowSeconds() + RESERVATION_SECONDS;
  await db().entities.reservation.create({ conversationId: id, userId: me.uid, expiresAt: expires }).go();
  return { id, expires };
}

export interface NewRecord {
  id: number;
  authorId: number;
  /** The first recipient; 0 for a pickup's guest. */
  recipientId: number;
  title?: string;
  multiple: boolean;
  /** Each participant's copy of the key: a sealed envelope, or the guest's pickup-wrap. */
  keys: Map<number, string>;
  /** Protocol v2: the membership log as created (checked), its record, each participant's signed copy, and the log's admins. */
  signed?: SignedStart;
}

export interface SignedStart {
  entries: string;
  count: number;
  seq: number;
  hash: string;
  record: string;
  copies: Map<number, CheckedCopy>;
  admins: Set<number>;
}

/**
 * The transaction items that create a conversation with its participants, consuming the
 * author's live reservation of its id (the first item: if its condition fails, the id was not
 * reserved by the author, has expired or is used). Pickups put these in their own transaction.
 */
export function creation(tx: TransactionEntities, input: NewRecord, ms = Date.now()) {
  const now = Math.floor(ms / 1000);
  const conversation: ConversationItem = {
    id: input.id,
    authorId: input.authorId,
    recipientId: input.recipientId,
    title: input.title,
    multiple: input.multiple,
    createdAt: now,
    lastMoteId: 0,
    lastOtherMoteId: 0,
    members: [...input.keys.keys()].map((u) => ({ u, a: input.signed ? input.signed.admins.has(u) : u === input.authorId })),
    membersVersion: 0,
    timestamp: now,
    activity: ms,
    epoch: 0,
    needsRekey: false,
    ...(input.signed ? { logSeq: input.signed.seq, logHash: input.signed.hash } : {}),
  };
  const participants: ParticipantItem[] = [...input.keys].map(([userId, sealedKey]) => ({
    conversationId: input.id,
    userId,
    // The author is an admin for good: spec 000 §4, never removed nor demoted.
    admin: input.signed ? input.signed.admins.has(userId) : userId === input.authorId,
    sealedKey,
    ...(input.signed ? { copy: input.signed.copies.get(userId)!.copy } : {}),
    joinedAt: ms,
    lastVisit: userId === input.authorId ? now : 0,
    lastSeenMote: 0,
    archived: false,
  }));
  return {
    conversation,
    participants,
    items: [
      tx.reservation
        .delete({ conversationId: input.id })
        .where((attr, op) => `${op.eq(attr.userId, input.authorId)} AND ${op.gt(attr.expiresAt, now)}`)
        .commit(),
      tx.conversation.create(conversation).commit(),
      ...participants.map((item) => tx.participant.create(item).commit()),
      ...(input.signed
        ? [
            tx.logentries.create({ conversationId: input.id, first: 0, count: input.signed.count, entries: input.signed.entries }).commit(),
            tx.conversationepoch.create({ conversationId: input.id, epoch: 0, record: input.signed.record }).commit(),
          ]
        : []),
    ],
  };
}

/** POST /api/conversations: the actor and the recipients, each with the sealed key. */
export async function create(actor: Actor, body: z.input<typeof newConversation>): Promise<ConversationView> {
  const me = requireMember(actor);
  const input = valid(newConversation, body);
  const recipients = Array.isArray(input.recipient) ? input.recipient : [input.recipient];
  const everyone = [me.uid, ...recipients];
  if (new Set(everyone).size !== everyone.length) fail("participants_invalid", { message: "Name each recipient once, and not yourself." });
  let keys: Map<number, string>;
  let signed: SignedStart | undefined;
  if (input.sealed_keys) {
    keys = new Map(input.sealed_keys.map((k) => [k.user_id, k.sealed]));
    if (keys.size !== input.sealed_keys.length || keys.size !== everyone.length || !everyone.every((uid) => keys.has(uid))) fail("participants_invalid");
    for (const text of keys.values()) envelopeText(text, "sealed", "sealed_key_invalid");
  } else {
    signed = await signedStart(input, me.uid, everyone);
    keys = new Map(everyone.map((uid) => [uid, signed!.copies.get(uid)!.sealed]));
  }
  const title = input.title === undefined ? undefined : envelopeText(input.title, "aead", "title_invalid");

  const users = await getUsers(recipients);
  if (recipients.some((uid) => !users.has(uid))) fail("user_not_found");
  await assertContact(me, recipients);

  let made: ReturnType<typeof creation> | undefined;
  const result = await db()
    .transaction.write((tx) => {
      made = creation(tx, { id: input.id, authorId: me.uid, recipientId: recipients[0]!, title, multiple: recipients.length > 1, keys, signed });
      return made.items;
    })
    .go();
  if (result.canceled) {
    const reasons = cancellationReasons(result);
    if (reasons[0] === "ConditionalCheckFailed") fail("reservation_invalid");
    throw new Error(`creating conversation ${input.id} was cancelled: ${reasons.join(",")}`);
  }
  return view(made!.conversation, made!.conversation.members!, made!.participants[0], false);
}

/**
 * A conversation created with its log (protocol v2): `create` by the author, then entries that
 * bring in exactly the recipients (adds, and promotions if the author wants), the record for that
 * head and a copy for everyone, all signed by the author.
 */
async function signedStart(input: z.infer<typeof newConversation>, author: number, everyone: number[]): Promise<SignedStart> {
  if (everyone.length > SIGNED_PARTICIPANTS_MAX) fail("participants_invalid", { message: `A conversation has at most ${SIGNED_PARTICIPANTS_MAX} people.` });
  const done = await replay(input.id, author, EMPTY_LOG, input.log ?? [], author);
  const ids = [...everyone].sort((a, b) => a - b).join();
  if (!done.created || done.removed.length > 0 || done.rekeyed || memberIds(done.state).join() !== ids) {
    fail("log_invalid", { message: "The log of a new conversation brings in exactly its people." });
  }
  return {
    entries: JSON.stringify(done.entries),
    count: done.entries.length,
    seq: done.state.seq,
    hash: done.state.hash,
    record: checkRecord(input.id, done.state, input.record, author),
    copies: checkCopies(input.copies, everyone, author),
    admins: new Set(done.state.members.filter((m) => m.a).map((m) => m.u)),
  };
}

/** PATCH /api/conversations/{id}: any participant may rename; the title is an `aead` envelope. */
export async function rename(actor: Actor, id: number, body: z.input<typeof renameBody>): Promise<ConversationView> {
  const { me } = await access(actor, id, "rename");
  const checked = envelopeText(valid(renameBody, body).title, "aead", "title_invalid");
  await db().entities.conversation.patch({ id }).set({ title: checked, activity: Date.now() }).go();
  return describe(id, me.uid);
}

/**
 * POST /api/conversations/{id}/archive: hides the conversation from the actor's own lists (and
 * the notification poll) until a message newer than the newest one now arrives; it stays
 * readable by its address meanwhile. Nothing changes for the other participants.
 */
export async function archive(actor: Actor, id: number) {
  const { me, conversation, participant } = await access(actor, id, "archive");
  await db()
    .entities.participant.patch({ conversationId: id, userId: me.uid })
    .set({ archived: true, lastSeenMote: Math.max(conversation.lastMoteId, participant.lastSeenMote) })
    .go();
  return { archived: true };
}

/**
 * POST /api/conversations/{id}/key: a member participant's own copy of a version 1 conversation's
 * key, sealed again by their browser for the account key they renewed to (docs/protocol.md §14.13):
 * it replaces theirs, nobody else's. A conversation with a membership log has signed copies that
 * its admins renew (409 sealed_key_signed). The server cannot tell what the copy holds: a wrong one
 * only closes the conversation to the one who sent it.
 */
export async function resealOwnKey(actor: Actor, id: number, body: z.input<typeof ownKeyBody>) {
  const sealedKey = envelopeText(valid(ownKeyBody, body, "sealed_key_invalid").sealed, "sealed", "sealed_key_invalid");
  // Whoever may archive it (a member participant) holds a copy of their own.
  const { me, conversation } = await access(actor, id, "archive");
  if (protocolOf(conversation) === 2) fail("sealed_key_signed");
  const { canceled } = await writeTransaction((tx) => [
    tx.participant
      .patch({ conversationId: id, userId: me.uid })
      .set({ sealedKey })
      .where((attr, op) => op.exists(attr.userId))
      .commit(),
    // Still without a log (a migration in between signs copies: this one would not be).
    tx.conversation
      .check({ id })
      .where((attr, op) => op.notExists(attr.logSeq))
      .commit(),
  ]);
  if (canceled) {
    const now = await find(id);
    fail(now && protocolOf(now) === 2 ? "sealed_key_signed" : "participant_missing");
  }
  return { resealed: true as const };
}

/** How long a deleted conversation's id keeps answering "deleted" rather than "not found". */
export const TOMBSTONE_SECONDS = 180 * 86_400;

/**
 * Removes a conversation with everything in it: its messages and their local ids, its
 * participants and attachments, then the conversation; its files go through the queue (retried
 * until done). A tombstone goes first, so that from then on the id answers "deleted" (for
 * TOMBSTONE_SECONDS). Idempotent. Deleting a pickup calls it; ordinary conversations are archived.
 */
export async function purge(id: number): Promise<void> {
  const now = nowSeconds();
  await db().entities.conversationgone.put({ id, deletedAt: now, purgeAt: now + TOMBSTONE_SECONDS }).go();
  const [{ data: motes }, { data: participants }, { data: attachments }, { data: logs }, { data: epochs }] = await Promise.all([
    db().entities.mote.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    db().entities.participant.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    db().entities.attachment.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    db().entities.logentries.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    db().entities.conversationepoch.query.byConversation({ conversationId: id }).go({ pages: "all" }),
  ]);
  const localids = motes.filter((m) => m.localid).map((m) => ({ conversationId: id, userId: m.sourceId, localid: m.localid! }));
  await Promise.all([
    motes.length && db().entities.mote.delete(motes.map((m) => ({ conversationId: id, id: m.id }))).go(),
    localids.length && db().entities.localid.delete(localids).go(),
    participants.length && db().entities.participant.delete(participants.map((p) => ({ conversationId: id, userId: p.userId }))).go(),
    attachments.length && db().entities.attachment.delete(attachments.map((a) => ({ conversationId: id, id: a.id }))).go(),
    logs.length && db().entities.logentries.delete(logs.map((l) => ({ conversationId: id, first: l.first }))).go(),
    epochs.length && db().entities.conversationepoch.delete(epochs.map((e) => ({ conversationId: id, epoch: e.epoch }))).go(),
  ]);
  await db().entities.conversation.delete({ id }).go();
  await Queue.send({ type: "purge-attachments", conversationId: id });
}
