import { type Actions, type Actor, type ParticipantActor, type ResourceOf, can } from "../access";
import { isConditionFailure } from "../db/conditions";
import { db } from "../db/service";
import { id as idSchema } from "@sealwork/contracts";
import { type ErrorCode, fail, valid } from "../errors";
import type { ConversationItem, ParticipantItem } from "./entities";
import "./entities";
import "./errors";

/** What a verb learns from access(): who acts, the conversation, and the actor's own entry in it. */
export interface Access {
  me: ParticipantActor;
  conversation: ConversationItem;
  participant: ParticipantItem;
  resource: ResourceOf<"conversation">;
}

export async function find(id: number): Promise<ConversationItem | undefined> {
  const { data } = await db().entities.conversation.get({ id }).go();
  return data ?? undefined;
}

export async function participantOf(conversationId: number, userId: number): Promise<ParticipantItem | undefined> {
  const { data } = await db().entities.participant.get({ conversationId, userId }).go();
  return data ?? undefined;
}

export async function participantsOf(conversationId: number): Promise<ParticipantItem[]> {
  const { data } = await db().entities.participant.query.byConversation({ conversationId }).go({ pages: "all" });
  return data;
}

/**
 * The refusal for a conversation id without a conversation: 404 `conversation_not_found` ("…has
 * been deleted!") while its tombstone is there (Conversation.purge), else 404 `not_found`: it
 * never existed (or was deleted so long ago that its tombstone is gone too).
 */
export async function missing(id: number): Promise<never> {
  const { data } = await db().entities.conversationgone.get({ id }).go();
  return fail(data ? "conversation_not_found" : "not_found");
}

/** Who takes part in a conversation, and whether as an admin: its `members` list. */
export type Member = NonNullable<ConversationItem["members"]>[number];

/**
 * The conversation's members from its own item; a conversation made before the item carried them
 * has its participant items read once and the list written back (conditionally, so a concurrent
 * change of the participants is not overwritten).
 */
export async function membersOf(conversation: ConversationItem): Promise<Member[]> {
  if (conversation.members) return conversation.members;
  const members = (await participantsOf(conversation.id)).map((p) => ({ u: p.userId, a: p.admin }));
  try {
    await db()
      .entities.conversation.patch({ id: conversation.id })
      .set({ members, membersVersion: conversation.membersVersion ?? 0 })
      .where((attr, op) => op.notExists(attr.members))
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return members;
}

/** The conversation as the access layer sees it, for the actor whose entry `participant` is. */
export function resource(conversation: ConversationItem, participant: ParticipantItem | undefined): ResourceOf<"conversation"> {
  return {
    kind: "conversation",
    id: conversation.id,
    authorId: conversation.authorId,
    pickup: conversation.recipientId === 0,
    participant: participant ? { admin: participant.admin } : null,
    signed: conversation.logSeq !== undefined,
  };
}

/**
 * The conversation and the actor's entry if the actor may `action` it (access/can.ts): 404 when
 * it does not exist (`missing`: deleted, or never there), else `denied` (403). A pickup's guest
 * learns nothing of other conversations (403 before any read), and its own pickup is gone (404)
 * once expired, locked or deleted.
 */
export async function access(actor: Actor, id: number, action: Actions["conversation"] = "read", denied: ErrorCode = "conversation_forbidden"): Promise<Access> {
  valid(idSchema, id);
  if (actor.kind === "guest" && actor.pickup !== id) fail("conversation_forbidden");
  if (actor.kind === "guest" && !actor.live) fail("conversation_not_found");
  const [conversation, participant] = await Promise.all([find(id), "uid" in actor ? participantOf(id, actor.uid) : undefined]);
  if (!conversation) return missing(id);
  const checked = resource(conversation, participant);
  if (!can(actor, action, checked) || !participant) fail(denied);
  return { me: actor as ParticipantActor, conversation, participant, resource: checked };
}

/** Each conversation's copy of the key for `userId` (for a pickup's guest: the pickup-wrap), in one batch read. */
export async function keysOf(conversationIds: number[], userId: number): Promise<Map<number, string>> {
  if (!conversationIds.length) return new Map();
  const { data } = await db().entities.participant.get(conversationIds.map((conversationId) => ({ conversationId, userId }))).go();
  return new Map(data.map((p) => [p.conversationId, p.sealedKey]));
}
