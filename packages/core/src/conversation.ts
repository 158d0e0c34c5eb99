import {
  MOTES_PAGE,
  type Attribution,
  type ConversationView,
  type MoteView,
  type NewConversation,
  type ParticipantView,
} from "@sealwork/contracts";
import { type EnvelopeKind, isCryptoError, parseEnvelope } from "@sealwork/crypto";
import { isAdmin, isMember, type Caller, type MemberCaller, type ParticipantCaller } from "./caller";
import { nextId } from "./db/counter";
import { db, type ConversationItem, type MoteItem, type ParticipantItem, type TransactionEntities } from "./db/entities";
import { fail, type ErrorCode } from "./errors";
import { Group } from "./group";
import { NO_CONTENT, type NoContent } from "./http/api";
import { GUEST_NAME, Pickup } from "./pickup";
import { isConditionFailure } from "./rate-limit";
import { User } from "./user";

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** How many conflicting transactions an append retries before giving up (DynamoDB's own advice). */
const APPEND_ATTEMPTS = 5;
/** Outstanding counts stop here; the client shows "99+" or similar. */
const OUTSTANDING_CAP = 100;

/**
 * Conversations (spec 000 §3–§8; docs/api.md Conversations). The server is blind (ARCHITECTURE
 * §1): it keeps who takes part, each participant's sealed copy of the conversation key, and the
 * messages as `aead` envelopes it checks for shape and size but cannot open. Every call needs the
 * caller to be a participant; unknown ids give 404, other people's conversations 403.
 */
export namespace Conversation {
  export interface Access {
    me: ParticipantCaller;
    conversation: ConversationItem;
    participant: ParticipantItem;
  }

  function member(caller: Caller): MemberCaller {
    if (!isMember(caller)) fail("forbidden");
    return caller;
  }

  /** Members, or a pickup's guest for that pickup's conversation only (Pickup.admitGuest). */
  async function participantCaller(caller: Caller, id: number): Promise<ParticipantCaller> {
    if (caller.kind !== "guest") return member(caller);
    await Pickup.admitGuest(caller, id);
    return caller;
  }

  /** The conversation and the caller's participant item, or 404 / 403 (`denied` for the latter). */
  export async function access(caller: Caller, id: number, denied: ErrorCode = "conversation_forbidden"): Promise<Access> {
    const me = await participantCaller(caller, id);
    const [conversation, participant] = await Promise.all([getConversation(id), getParticipant(id, me.uid)]);
    if (!conversation) fail("conversation_not_found");
    if (!participant) fail(denied);
    return { me, conversation, participant };
  }

  async function getConversation(id: number): Promise<ConversationItem | undefined> {
    const { data } = await db().entities.conversation.get({ id }).go();
    return data ?? undefined;
  }

  async function getParticipant(conversationId: number, userId: number): Promise<ParticipantItem | undefined> {
    const { data } = await db().entities.participant.get({ conversationId, userId }).go();
    return data ?? undefined;
  }

  async function participantsOf(conversationId: number): Promise<ParticipantItem[]> {
    const { data } = await db().entities.participant.query.byConversation({ conversationId }).go({ pages: "all" });
    return data;
  }

  /** Parses an envelope of the expected kind and returns its canonical text, else 422 `code`. */
  function envelope(text: string, kind: EnvelopeKind, code: ErrorCode): string {
    try {
      parseEnvelope(text, kind);
      return text;
    } catch (error) {
      if (isCryptoError(error)) fail(code);
      throw error;
    }
  }

  // --- creating -----------------------------------------------------------------------------

  /** How long a reserved conversation id waits for its conversation. */
  export const RESERVATION_SECONDS = 3600;

  /** POST /api/conversations/reserve: a fresh id, to be created by the caller within the hour. */
  export async function reserve(caller: Caller) {
    const me = member(caller);
    const id = await nextId("conversation");
    const expires = nowSeconds() + RESERVATION_SECONDS;
    await db().entities.reservation.create({ conversationId: id, userId: me.uid, expiresAt: expires }).go();
    return { id, expires };
  }

  /** The transaction item that consumes the caller's live reservation of `id` (else the transaction fails). */
  export function consumeReservation({ reservation }: TransactionEntities, id: number, uid: number) {
    return reservation
      .delete({ conversationId: id })
      .where((attr, op) => `${op.eq(attr.userId, uid)} AND ${op.gt(attr.expiresAt, nowSeconds())}`)
      .commit();
  }

  /** POST /api/conversations: the caller and the recipients, each with the sealed key. */
  export async function create(caller: Caller, input: NewConversation): Promise<ConversationView> {
    const me = member(caller);
    const recipients = Array.isArray(input.recipient) ? input.recipient : [input.recipient];
    const everyone = [me.uid, ...recipients];
    if (new Set(everyone).size !== everyone.length) fail("participants_invalid", { message: "Name each recipient once, and not yourself." });
    const sealed = new Map(input.sealed_keys.map((k) => [k.user_id, k.sealed]));
    if (sealed.size !== input.sealed_keys.length || sealed.size !== everyone.length || !everyone.every((uid) => sealed.has(uid))) fail("participants_invalid");
    for (const text of sealed.values()) envelope(text, "sealed", "sealed_key_invalid");
    const title = input.title === undefined ? undefined : envelope(input.title, "aead", "title_invalid");

    const users = await Promise.all(recipients.map((uid) => User.get(uid)));
    if (users.some((u) => !u)) fail("user_not_found");
    if (me.kind === "user") {
      // Administrators may start a conversation with anyone (spec 000 §6).
      const shared = await Promise.all(recipients.map((uid) => Group.shareAGroup(me.uid, uid)));
      if (shared.some((s) => !s)) fail("conversation_no_shared_group");
    }

    const id = input.id;
    const ms = Date.now();
    const conversation: ConversationItem = {
      id,
      authorId: me.uid,
      recipientId: recipients[0]!,
      title,
      multiple: recipients.length > 1,
      createdAt: Math.floor(ms / 1000),
      lastMoteId: 0,
      timestamp: Math.floor(ms / 1000),
      activity: ms,
    };
    const participants: ParticipantItem[] = everyone.map((userId) => ({
      conversationId: id,
      userId,
      // The author is an admin for good: spec 000 §4, never removed nor demoted.
      admin: userId === me.uid,
      sealedKey: sealed.get(userId)!,
      joinedAt: ms,
      lastVisit: userId === me.uid ? conversation.timestamp : 0,
      lastSeenMote: 0,
      archived: false,
    }));
    const result = await db()
      .transaction.write((tx) => [
        consumeReservation(tx, id, me.uid),
        tx.conversation.create(conversation).commit(),
        ...participants.map((item) => tx.participant.create(item).commit()),
      ])
      .go();
    if (result.canceled) {
      if (result.data[0]?.code === "ConditionalCheckFailed") fail("reservation_invalid");
      throw new Error(`creating conversation ${id} was cancelled: ${result.data.map((r) => r.code).join(",")}`);
    }
    return view(conversation, participants, me.uid, false);
  }

  // --- reading ------------------------------------------------------------------------------

  function view(c: ConversationItem, participants: ParticipantItem[], uid: number, unread: boolean): ConversationView {
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

  function participantViews(participants: ParticipantItem[]): ParticipantView[] {
    return participants.map((p) => ({ user_id: p.userId, admin: p.admin }));
  }

  function moteView(m: MoteItem): MoteView {
    return { id: m.id, source_id: m.sourceId, timestamp: m.timestamp, payload: m.payload, localid: m.localid ?? null };
  }

  async function attribution(uids: Iterable<number>): Promise<Attribution> {
    const unique = [...new Set(uids)];
    const users = await Promise.all(unique.map((uid) => User.get(uid)));
    // The guest of a pickup (spec 000 §6: user id 0, named Guest).
    const out: Attribution = unique.includes(0) ? { "0": { uid: 0, name: GUEST_NAME } } : {};
    for (const user of users) if (user) out[String(user.id)] = { uid: user.id, name: user.name };
    return out;
  }

  /** Messages by others after the caller's last seen one (capped), and whether it is unread. */
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
        const c = await getConversation(p.conversationId);
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

  /** GET /api/users/{id}/conversations: one's own list only. */
  export async function list(caller: Caller, userId: number) {
    const me = member(caller);
    if (me.uid !== userId) fail("forbidden");
    const { highest: _highest, ...rest } = await summary(me.uid);
    return { ...rest, pickups: await Pickup.views(rest.conversations) };
  }

  /**
   * GET /api/notify/check?previous=: 204 when nothing happened in the caller's conversations
   * after `previous` (milliseconds, the `new_highest` of the last answer; 0 the first time).
   */
  export async function check(caller: Caller, previous: number) {
    const me = member(caller);
    const found = await summary(me.uid, previous);
    if (found.highest <= previous) return NO_CONTENT as NoContent;
    return { new_highest: found.highest, conversations: found.conversations, pickups: await Pickup.views(found.conversations), last_visits: found.last_visits };
  }

  export interface LoadOptions {
    before?: number;
    after?: number;
    meta?: "0" | "1";
  }

  /**
   * GET /api/conversations/{id}: a page of 50 messages, oldest first. Without `before`/`after`
   * the newest page (and it records the caller's visit); `before` pages back, `after` forward.
   * `more` says whether there are further messages in that direction.
   */
  export async function load(caller: Caller, id: number, options: LoadOptions) {
    const { me, conversation, participant } = await access(caller, id);
    const query = db().entities.mote.query.byConversation({ conversationId: id });
    let motes: MoteItem[];
    let more: boolean;
    if (options.after !== undefined) {
      const { data } = await query.gt({ id: options.after }).go({ limit: MOTES_PAGE + 1, order: "asc" });
      more = data.length > MOTES_PAGE;
      motes = data.slice(0, MOTES_PAGE);
    } else {
      const ranged = options.before !== undefined ? query.lt({ id: options.before }) : query;
      const { data } = await ranged.go({ limit: MOTES_PAGE + 1, order: "desc" });
      more = data.length > MOTES_PAGE;
      motes = data.slice(0, MOTES_PAGE).reverse();
    }
    const participants = await participantsOf(id);
    const newest = Math.max(conversation.lastMoteId, motes.at(-1)?.id ?? 0);
    await db()
      .entities.participant.patch({ conversationId: id, userId: me.uid })
      // Opening an archived conversation that news brought back keeps it in the lists.
      .set({ lastVisit: nowSeconds(), lastSeenMote: Math.max(newest, participant.lastSeenMote), archived: participant.archived && !(newest > participant.lastSeenMote) })
      .go();
    return {
      motes: motes.map(moteView),
      more,
      meta: options.meta === "1" ? view(conversation, participants, me.uid, false) : null,
      participants: participantViews(participants),
      attrib: await attribution([...participants.map((p) => p.userId), ...motes.map((m) => m.sourceId)]),
      sealed: participant.sealedKey,
    };
  }

  /** The messages with these ids (the attachments list), oldest first. */
  export async function motesById(conversationId: number, ids: number[]): Promise<MoteView[]> {
    if (!ids.length) return [];
    const { data } = await db().entities.mote.get(ids.map((moteId) => ({ conversationId, id: moteId }))).go();
    return data.sort((a, b) => a.id - b.id).map(moteView);
  }

  async function newestMote(conversationId: number): Promise<number> {
    const { data } = await db().entities.mote.query.byConversation({ conversationId }).go({ limit: 1, order: "desc" });
    return data[0]?.id ?? 0;
  }

  /** GET /api/conversations/{id}/poll?largest=: whether there is a message newer than `largest`. */
  export async function poll(caller: Caller, id: number, largest: number) {
    await access(caller, id);
    return { has_new: (await newestMote(id)) > largest };
  }

  // --- writing ------------------------------------------------------------------------------

  /**
   * POST /api/conversations/{id}/append. The id comes from the conversation's own counter (an
   * atomic add), and the message is written in one transaction with a create-only item for
   * (conversation, user, localid): a retry with the same localid, even racing the first try,
   * stores nothing and answers the message already stored. A lost race leaves a gap in the ids;
   * ids only ever increase.
   */
  export async function append(caller: Caller, id: number, input: { localid: string; payload: string; attachments?: number[] }) {
    const me = await participantCaller(caller, id);
    const participant = await getParticipant(id, me.uid);
    if (!participant) fail((await getConversation(id)) ? "conversation_forbidden" : "conversation_not_found");
    const payload = envelope(input.payload, "aead", "mote_payload_invalid");

    // No read of the localid first: the transaction's condition finds a retry (at the cost of a
    // skipped id), which keeps the common case to one counter add and one transaction.
    const mote: MoteItem = { conversationId: id, id: await nextId(`mote:${id}`), sourceId: me.uid, timestamp: nowSeconds(), payload, localid: input.localid };
    const attachments = [...new Set(input.attachments ?? [])];
    for (let attempt = 1; ; attempt++) {
      const result = await db()
        .transaction.write(({ mote: m, localid, attachment }) => [
          localid.create({ conversationId: id, userId: me.uid, localid: input.localid, moteId: mote.id }).commit(),
          m.create(mote).commit(),
          // Only the sender's own, completely uploaded files of this conversation (Attachment).
          ...attachments.map((aid) =>
            attachment
              .patch({ conversationId: id, id: aid })
              .set({ state: "attached", moteId: mote.id })
              .remove(["expiresAt"])
              .where((attr, op) => `${op.eq(attr.state, "uploaded")} AND ${op.eq(attr.sourceId, me.uid)}`)
              .commit(),
          ),
        ])
        .go();
      if (!result.canceled) break;
      const reasons = result.data.map((r) => r.code);
      if (reasons[0] === "ConditionalCheckFailed") {
        // The same localid won a race with this request: answer its message.
        const winner = await storedFor(id, me.uid, input.localid);
        if (winner) return answer(winner);
      }
      if (reasons.slice(2).includes("ConditionalCheckFailed")) fail("attachment_invalid");
      if (attempt >= APPEND_ATTEMPTS) throw new Error(`append to ${id} cancelled: ${reasons.join(",")}`);
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
    const [answered] = await Promise.all([answer(mote), touch(id, mote.id, mote.timestamp)]);
    return answered;
  }

  async function storedFor(conversationId: number, userId: number, localid: string): Promise<MoteItem | undefined> {
    const { data } = await db().entities.localid.get({ conversationId, userId, localid }).go();
    if (!data) return undefined;
    const found = await db().entities.mote.get({ conversationId, id: data.moteId }).go();
    return found.data ?? undefined;
  }

  async function answer(mote: MoteItem) {
    const { data } = await db()
      .entities.mote.query.byConversation({ conversationId: mote.conversationId })
      .lt({ id: mote.id })
      .go({ limit: 1, order: "desc" });
    return { mote: moteView(mote), previous_mote: data[0]?.id ?? 0, localid: mote.localid ?? "" };
  }

  /**
   * Moves the conversation's newest-message marker forward (never back). Outside the message's
   * transaction on purpose: concurrent appends would otherwise conflict on this one item. The
   * messages themselves are the truth (poll and load read them); this only orders lists.
   */
  async function touch(id: number, moteId: number, timestamp: number) {
    try {
      await db()
        .entities.conversation.patch({ id })
        .set({ lastMoteId: moteId, timestamp, activity: Date.now() })
        .where((attr, op) => op.lt(attr.lastMoteId, moteId))
        .go();
    } catch (error) {
      // A newer message got there first.
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * POST /api/conversations/{id}/archive: hides the conversation from the caller's own lists (and
   * the notification poll) until a message newer than the newest one now arrives; it stays
   * readable by its address meanwhile. Nothing changes for the other participants.
   */
  export async function archive(caller: Caller, id: number) {
    const { me, conversation, participant } = await access(caller, id);
    await db()
      .entities.participant.patch({ conversationId: id, userId: me.uid })
      .set({ archived: true, lastSeenMote: Math.max(conversation.lastMoteId, participant.lastSeenMote) })
      .go();
    return { archived: true };
  }

  /** PATCH /api/conversations/{id}: any participant may rename; the title is an `aead` envelope. */
  export async function rename(caller: Caller, id: number, title: string): Promise<ConversationView> {
    const { me } = await access(caller, id);
    const checked = envelope(title, "aead", "title_invalid");
    await db().entities.conversation.patch({ id }).set({ title: checked, activity: Date.now() }).go();
    return describe(id, me.uid);
  }

  /** One conversation as `uid` sees it, read afresh (after a change, or a pickup's creation). */
  export async function describe(id: number, uid: number): Promise<ConversationView> {
    const [conversation, participants] = await Promise.all([getConversation(id), participantsOf(id)]);
    if (!conversation) fail("conversation_not_found");
    return view(conversation, participants, uid, false);
  }

  export interface Participate {
    participant: number;
    sealed?: string;
    admin?: true;
    unadmin?: true;
  }

  /** Instance admins (who take part), the author and conversation admins may add, remove and administrate. */
  function manages({ me, conversation, participant }: Access): boolean {
    return isAdmin(me) || conversation.authorId === me.uid || participant.admin;
  }

  async function participantsResult(id: number) {
    const participants = await participantsOf(id);
    return { participants: participantViews(participants), attrib: await attribution(participants.map((p) => p.userId)) };
  }

  /**
   * POST /api/conversations/{id}/participate: with `admin` or `unadmin` toggles a participant's
   * admin flag; otherwise adds the user with the conversation key sealed for them.
   */
  export async function participate(caller: Caller, id: number, input: Participate) {
    if (input.admin || input.unadmin) {
      const a = await access(caller, id, "administrate_forbidden");
      if (!manages(a)) fail("administrate_forbidden");
      if (input.participant === a.me.uid) fail("unadmin_self");
      if (input.unadmin && input.participant === a.conversation.authorId) fail("unadmin_author");
      if (!(await getParticipant(id, input.participant))) fail("participant_missing");
      await db().entities.participant.patch({ conversationId: id, userId: input.participant }).set({ admin: Boolean(input.admin) }).go();
      return participantsResult(id);
    }

    const a = await access(caller, id, "add_forbidden");
    if (!manages(a)) fail("add_not_author");
    // Spec 000 §6: pickups cannot take more people.
    if (a.conversation.recipientId === 0) fail("pickup_participants");
    const sealedKey = envelope(input.sealed ?? "", "sealed", "sealed_key_invalid");
    if (!(await User.get(input.participant))) fail("user_not_found");
    const ms = Date.now();
    try {
      await db()
        .entities.participant.create({ conversationId: id, userId: input.participant, admin: false, sealedKey, joinedAt: ms, lastVisit: 0, lastSeenMote: 0, archived: false })
        .go();
    } catch (error) {
      if (isConditionFailure(error)) fail("participant_exists");
      throw error;
    }
    await db().entities.conversation.patch({ id }).set({ multiple: true, activity: ms }).go();
    return participantsResult(id);
  }

  /** POST /api/conversations/{id}/unparticipate: removes a participant (never oneself or the author). */
  export async function unparticipate(caller: Caller, id: number, userId: number) {
    const a = await access(caller, id, "remove_forbidden");
    if (userId === a.me.uid) fail("remove_self");
    if (!manages(a)) fail("remove_forbidden");
    if (userId === a.conversation.authorId) fail("remove_author");
    // A pickup's guest leaves with the pickup (DELETE), not on their own.
    if (a.conversation.recipientId === 0) fail("remove_forbidden");
    try {
      await db()
        .entities.participant.delete({ conversationId: id, userId })
        .where((attr, op) => op.exists(attr.userId))
        .go();
    } catch (error) {
      if (isConditionFailure(error)) fail("participant_missing");
      throw error;
    }
    await db().entities.conversation.patch({ id }).set({ activity: Date.now() }).go();
    return participantsResult(id);
  }
}
