import type { Attribution, ConversationView, MoteView, ParticipantView } from "@sealwork/contracts";
import { type Actor, requireMember } from "../access";
import { db } from "../db/service";
import { fail } from "../errors";
import { getUsers } from "../user/read";
import { find, participantsOf } from "./access";
import type { ConversationItem, MoteItem, ParticipantItem } from "./entities";

/** The guest of a pickup (spec 000 §6: user id 0, named Guest). */
export const GUEST_NAME = "Guest";
/** Outstanding counts stop here; the client shows "99+" or similar. */
const OUTSTANDING_CAP = 100;

export function view(c: ConversationItem, participants: ParticipantItem[], uid: number, unread: boolean): ConversationView {
  const others = participants.filter((p) => p.userId !== uid);
  return {
    id: c.id,
    title: c.title ?? null,
    author_id: c.authorId,
    recipient_id: c.recipientId,
    other_id: !c.multiple && others.length === 1 ? others[0]!.userId : null,
    participants: participantViews(participants),
    multiple: c.multiple,
    timestamp: c.timestamp,
    last_mote: c.lastMoteId,
    unread,
    attachlist: [],
    sealed: participants.find((p) => p.userId === uid)?.sealedKey ?? null,
  };
}

export function participantViews(participants: ParticipantItem[]): ParticipantView[] {
  return participants.map((p) => ({ user_id: p.userId, admin: p.admin }));
}

export function moteView(m: MoteItem): MoteView {
  return { id: m.id, source_id: m.sourceId, timestamp: m.timestamp, payload: m.payload, localid: m.localid ?? null };
}

/** Names of the people behind these user ids (one batch read), and the guest's. */
export async function attribution(uids: Iterable<number>): Promise<Attribution> {
  const unique = [...new Set(uids)];
  const users = await getUsers(unique);
  const out: Attribution = unique.includes(0) ? { "0": { uid: 0, name: GUEST_NAME } } : {};
  for (const user of users.values()) out[String(user.id)] = { uid: user.id, name: user.name };
  return out;
}

/** Messages by others after the participant's last seen one (capped), and whether it is unread. */
async function unseen(c: ConversationItem, p: ParticipantItem): Promise<{ unread: boolean; outstanding: number }> {
  const fresh = p.lastVisit === 0 && c.authorId !== p.userId;
  if (c.lastMoteId <= p.lastSeenMote) return { unread: fresh, outstanding: 0 };
  const { data } = await db()
    .entities.mote.query.byConversation({ conversationId: c.id })
    .gt({ id: p.lastSeenMote })
    .go({ limit: OUTSTANDING_CAP });
  const outstanding = data.filter((m) => m.sourceId !== p.userId).length;
  return { unread: fresh || outstanding > 0, outstanding };
}

interface Summary {
  conversations: ConversationView[];
  attribution: Attribution;
  last_visits: Record<string, number>;
  outstanding: Record<string, number>;
  /** Milliseconds: the newest activity among them (creation, message, being added). */
  highest: number;
}

/** An archived conversation comes back once a message newer than the archiving arrives. */
const hidden = (c: ConversationItem, p: ParticipantItem) => p.archived && c.lastMoteId <= p.lastSeenMote;

/** The user's conversations (not archived), newest first; `since` keeps those with newer activity. */
async function summary(uid: number, since = -1): Promise<Summary> {
  const { data: mine } = await db().entities.participant.query.byUser({ userId: uid }).go({ pages: "all" });
  const rows = await Promise.all(
    mine.map(async (p) => {
      const c = await find(p.conversationId);
      return c && !hidden(c, p) ? { c, p, at: Math.max(c.activity, p.joinedAt) } : undefined;
    }),
  );
  const present = rows.filter((r) => r !== undefined);
  const highest = present.reduce((max, r) => Math.max(max, r.at), 0);
  const chosen = present.filter((r) => r.at > since).sort((a, b) => b.c.timestamp - a.c.timestamp || b.c.id - a.c.id);
  const built = await Promise.all(
    chosen.map(async ({ c, p }) => {
      const [participants, seen] = await Promise.all([participantsOf(c.id), unseen(c, p)]);
      return { view: view(c, participants, uid, seen.unread), p, seen, participants };
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
    attribution: await attribution(built.flatMap((b) => b.participants.map((p) => p.userId))),
    last_visits: lastVisits,
    outstanding,
    highest,
  };
}

/** GET /api/users/{id}/conversations: one's own list only (the pickups among them: Pickup.withViews). */
export async function list(actor: Actor, userId: number) {
  const me = requireMember(actor);
  if (me.uid !== userId) fail("forbidden");
  const { highest: _highest, ...rest } = await summary(me.uid);
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
  const [conversation, participants] = await Promise.all([find(id), participantsOf(id)]);
  if (!conversation) fail("conversation_not_found");
  return view(conversation, participants, uid, false);
}
