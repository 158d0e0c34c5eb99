import { type Attribution, type ConversationView, type MoteView, type ParticipantView, conversationListQuery } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, requireMember } from "../access";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import { getUsers } from "../user/read";
import { type Member, find, membersOf, participantOf } from "./access";
import type { ConversationItem, MoteItem, ParticipantItem } from "./entities";
import "./entities";
import "./errors";

/** The guest of a pickup (spec 000 §6: user id 0, named Guest). */
export const GUEST_NAME = "Guest";
/** Outstanding counts stop here; the client shows "99+" or similar. */
const OUTSTANDING_CAP = 100;

/** A conversation as `me` (their participant item, if any) sees it. */
export function view(c: ConversationItem, members: Member[], me: ParticipantItem | undefined, unread: boolean): ConversationView {
  const others = members.filter((m) => m.u !== me?.userId);
  return {
    id: c.id,
    title: c.title ?? null,
    author_id: c.authorId,
    recipient_id: c.recipientId,
    other_id: !c.multiple && others.length === 1 ? others[0]!.u : null,
    participants: participantViews(members),
    multiple: c.multiple,
    timestamp: c.timestamp,
    last_mote: c.lastMoteId,
    unread,
    attachlist: [],
    sealed: me?.sealedKey ?? null,
    protocol: protocolOf(c),
    epoch: c.epoch ?? 0,
  };
}

/** 2 when the conversation has a membership log (docs/protocol.md §14.8), else 1. */
export function protocolOf(c: ConversationItem): 1 | 2 {
  return c.logSeq === undefined ? 1 : 2;
}

/** The participants in user-id order. */
export function participantViews(members: Member[]): ParticipantView[] {
  return members.map((m) => ({ user_id: m.u, admin: m.a })).sort((a, b) => a.user_id - b.user_id);
}

export function moteView(m: MoteItem): MoteView {
  return {
    id: m.id,
    source_id: m.sourceId,
    timestamp: m.timestamp,
    payload: m.payload,
    localid: m.localid ?? null,
    epoch: m.epoch ?? null,
    signature: m.signature ?? null,
    sender_key_id: m.senderKeyId ?? null,
    ...(m.headSeq !== undefined && m.headHash !== undefined ? { log_head: { seq: m.headSeq, hash: m.headHash } } : {}),
  };
}

/** Names of the people behind these user ids (one batch read), and the guest's. */
export async function attribution(uids: Iterable<number>): Promise<Attribution> {
  const unique = [...new Set(uids)];
  const users = await getUsers(unique);
  const out: Attribution = unique.includes(0) ? { "0": { uid: 0, name: GUEST_NAME } } : {};
  for (const user of users.values()) out[String(user.id)] = { uid: user.id, name: user.name };
  return out;
}

/**
 * Whether a participant has not seen the conversation: never opened by someone it was started
 * for, or a message by someone else handed out after the last one they loaded. From the
 * conversation's counters alone: who got the newest id, and the newest id anyone else got.
 * `outstanding` is how many ids were handed out since (at most OUTSTANDING_CAP): an upper bound
 * of the unseen messages, since it counts the participant's own and ids lost to a retry.
 */
function unseen(c: ConversationItem, p: ParticipantItem): { unread: boolean; outstanding: number } {
  const fresh = p.lastVisit === 0 && c.authorId !== p.userId;
  const newestByOthers = c.lastSourceId === p.userId ? c.lastOtherMoteId : c.lastMoteId;
  const news = newestByOthers > p.lastSeenMote;
  return { unread: fresh || news, outstanding: news ? Math.min(OUTSTANDING_CAP, c.lastMoteId - p.lastSeenMote) : 0 };
}

/** An archived conversation comes back once a message newer than the archiving arrives. */
const hidden = (c: ConversationItem, p: ParticipantItem) => p.archived && c.lastMoteId <= p.lastSeenMote;

interface Summary {
  conversations: ConversationView[];
  attribution: Attribution;
  last_visits: Record<string, number>;
  outstanding: Record<string, number>;
  /** Milliseconds: the newest activity among them (creation, message, being added). */
  highest: number;
}

/**
 * The user's conversations (not archived, unless `archived`), newest first; `since` keeps those with newer activity.
 * A fixed number of table requests, however many conversations: the user's participant items
 * (one query), their conversations (a batch read per hundred) and the people in them (the same).
 */
async function summary(uid: number, since = -1, archived = false): Promise<Summary> {
  const { data: mine } = await db().entities.participant.query.byUser({ userId: uid }).go({ pages: "all" });
  const found = mine.length ? (await db().entities.conversation.get(mine.map((p) => ({ id: p.conversationId }))).go()).data : [];
  const conversations = new Map(found.map((c) => [c.id, c]));
  const rows = mine.flatMap((p) => {
    const c = conversations.get(p.conversationId);
    return c && (archived || !hidden(c, p)) ? [{ c, p, at: Math.max(c.activity, p.joinedAt) }] : [];
  });
  const highest = rows.reduce((max, r) => Math.max(max, r.at), 0);
  const chosen = rows.filter((r) => r.at > since).sort((a, b) => b.c.timestamp - a.c.timestamp || b.c.id - a.c.id);
  const built = await Promise.all(
    chosen.map(async ({ c, p }) => {
      const members = await membersOf(c);
      const seen = unseen(c, p);
      return { view: view(c, members, p, seen.unread), p, seen, members };
    }),
  );
  const outstanding: Record<string, number> = {};
  const lastVisits: Record<string, number> = {};
  for (const b of built) {
    lastVisits[String(b.view.id)] = b.p.lastVisit;
    if (b.seen.outstanding > 0) outstanding[String(b.view.id)] = b.seen.outstanding;
  }
  return {
    conversations: built.map((b) => b.view),
    attribution: await attribution(built.flatMap((b) => b.members.map((m) => m.u))),
    last_visits: lastVisits,
    outstanding,
    highest,
  };
}

/** GET /api/users/{id}/conversations: one's own list only (the pickups among them: pickup/views.ts); `archived=1`: the archived ones too. */
export async function list(actor: Actor, userId: number, query: z.input<typeof conversationListQuery> = {}) {
  const me = requireMember(actor);
  if (me.uid !== userId) fail("forbidden");
  const { archived } = valid(conversationListQuery, query);
  const { highest: _highest, ...rest } = await summary(me.uid, -1, archived === "1");
  return rest;
}

/**
 * GET /api/notify/check?previous=: null when nothing happened in the actor's conversations after
 * `previous` (milliseconds, the `new_highest` of the last answer; 0 the first time).
 */
export async function check(actor: Actor, previous: number) {
  const me = requireMember(actor);
  const found = await summary(me.uid, previous);
  if (found.highest <= previous) return null;
  return { new_highest: found.highest, conversations: found.conversations, last_visits: found.last_visits };
}

/** One conversation as `uid` sees it, read afresh (after a change, or a pickup's creation). */
export async function describe(id: number, uid: number): Promise<ConversationView> {
  const [conversation, me] = await Promise.all([find(id), participantOf(id, uid)]);
  if (!conversation) fail("conversation_not_found");
  return view(conversation, await membersOf(conversation), me, false);
}
