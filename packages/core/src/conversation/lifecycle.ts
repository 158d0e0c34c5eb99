import { newConversation, renameBody, type ConversationView } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, requireMember } from "../access";
import { nextId } from "../db/counter";
import { cancellationReasons, db, type TransactionEntities } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { Queue } from "../queue";
import { getUsers } from "../user/read";
import { access } from "./access";
import type { ConversationItem, ParticipantItem } from "./entities";
import { assertContact } from "./participants";
import { describe, view } from "./views";

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
    members: [...input.keys.keys()].map((u) => ({ u, a: u === input.authorId })),
    membersVersion: 0,
    timestamp: now,
    activity: ms,
  };
  const participants: ParticipantItem[] = [...input.keys].map(([userId, sealedKey]) => ({
    conversationId: input.id,
    userId,
    // The author is an admin for good: spec 000 §4, never removed nor demoted.
    admin: userId === input.authorId,
    sealedKey,
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
  const keys = new Map(input.sealed_keys.map((k) => [k.user_id, k.sealed]));
  if (keys.size !== input.sealed_keys.length || keys.size !== everyone.length || !everyone.every((uid) => keys.has(uid))) fail("participants_invalid");
  for (const text of keys.values()) envelopeText(text, "sealed", "sealed_key_invalid");
  const title = input.title === undefined ? undefined : envelopeText(input.title, "aead", "title_invalid");

  const users = await getUsers(recipients);
  if (recipients.some((uid) => !users.has(uid))) fail("user_not_found");
  await assertContact(me, recipients);

  let made: ReturnType<typeof creation> | undefined;
  const result = await db()
    .transaction.write((tx) => {
      made = creation(tx, { id: input.id, authorId: me.uid, recipientId: recipients[0]!, title, multiple: recipients.length > 1, keys });
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
  const [{ data: motes }, { data: participants }, { data: attachments }] = await Promise.all([
    db().entities.mote.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    db().entities.participant.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    db().entities.attachment.query.byConversation({ conversationId: id }).go({ pages: "all" }),
  ]);
  const localids = motes.filter((m) => m.localid).map((m) => ({ conversationId: id, userId: m.sourceId, localid: m.localid! }));
  await Promise.all([
    motes.length && db().entities.mote.delete(motes.map((m) => ({ conversationId: id, id: m.id }))).go(),
    localids.length && db().entities.localid.delete(localids).go(),
    participants.length && db().entities.participant.delete(participants.map((p) => ({ conversationId: id, userId: p.userId }))).go(),
    attachments.length && db().entities.attachment.delete(attachments.map((a) => ({ conversationId: id, id: a.id }))).go(),
  ]);
  await db().entities.conversation.delete({ id }).go();
  await Queue.send({ type: "purge-attachments", conversationId: id });
}
