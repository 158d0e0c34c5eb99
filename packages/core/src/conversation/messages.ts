import { MOTES_PAGE, appendBody, loadQuery, type MoteView } from "@sealwork/contracts";
import * as z from "zod";
import type { Actor } from "../access";
import { nextId } from "../db/counter";
import { isConditionFailure } from "../db/conditions";
import { db } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { access, participantsOf } from "./access";
import type { MoteItem } from "./entities";
import { attribution, moteView, participantViews, view } from "./views";

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** How many conflicting transactions an append retries before giving up (DynamoDB's own advice). */
const APPEND_ATTEMPTS = 5;
const sequence = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export type LoadOptions = z.input<typeof loadQuery>;

/**
 * GET /api/conversations/{id}: a page of 50 messages, oldest first. Without `before`/`after`
 * the newest page (and it records the actor's visit); `before` pages back, `after` forward.
 * `more` says whether there are further messages in that direction.
 */
export async function load(actor: Actor, id: number, request: LoadOptions) {
  const { me, conversation, participant } = await access(actor, id, "read");
  const options = valid(loadQuery, request);
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
export async function poll(actor: Actor, id: number, largest: number) {
  await access(actor, id, "read");
  valid(sequence, largest);
  return { has_new: (await newestMote(id)) > largest };
}

/**
 * POST /api/conversations/{id}/append. The id comes from the conversation's own counter (an
 * atomic add), and the message is written in one transaction with a create-only item for
 * (conversation, user, localid): a retry with the same localid, even racing the first try,
 * stores nothing and answers the message already stored. A lost race leaves a gap in the ids;
 * ids only ever increase.
 */
export async function append(actor: Actor, id: number, body: z.input<typeof appendBody>) {
  const { me } = await access(actor, id, "write");
  const input = valid(appendBody, body);
  const payload = envelopeText(input.payload, "aead", "mote_payload_invalid");

  // No read of the localid first: the transaction's condition finds a retry (at the cost of a
  // skipped id), which keeps the common case to one counter add and one transaction.
  const mote: MoteItem = { conversationId: id, id: await nextId(`mote:${id}`), sourceId: me.uid, timestamp: nowSeconds(), payload, localid: input.localid };
  const attachments = [...new Set(input.attachments ?? [])];
  for (let attempt = 1; ; attempt++) {
    const result = await db()
      .transaction.write(({ mote: m, localid, attachment }) => [
        localid.create({ conversationId: id, userId: me.uid, localid: input.localid, moteId: mote.id }).commit(),
        m.create(mote).commit(),
        // Only the sender's own, completely uploaded files of this conversation (attachments.ts).
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
