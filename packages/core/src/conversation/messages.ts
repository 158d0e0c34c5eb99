import { MOTES_PAGE, appendBody, loadQuery, type MoteView } from "@sealwork/contracts";
import { isCryptoError, parseEnvelope, parseSignedMessage } from "@sealwork/crypto";
import * as z from "zod";
import type { Actor } from "../access";
import { isConditionFailure } from "../db/conditions";
import { db, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { signerCheck } from "../keys/current";
import "../keys/errors";
import { access, find, membersOf, missing } from "./access";
import type { ConversationItem, MoteItem } from "./entities";
import { attribution, moteView, participantViews, protocolOf, view } from "./views";
import "./entities";
import "./errors";

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** How many conflicting transactions an append retries before giving up (DynamoDB's own advice). */
const APPEND_ATTEMPTS = 5;
/** Each lost race reads the item again, so losing this often means something else is wrong. */
const ALLOCATE_ATTEMPTS = 20;
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
  // Seen: up to the counter, so that an id lost to a retry does not stay unread for good (a
  // message still committing at this very moment is shown by the open page's polling).
  const newest = Math.max(conversation.lastMoteId, motes.at(-1)?.id ?? 0);
  const [members] = await Promise.all([
    membersOf(conversation),
    db()
      .entities.participant.patch({ conversationId: id, userId: me.uid })
      // Opening an archived conversation that news brought back keeps it in the lists.
      .set({ lastVisit: nowSeconds(), lastSeenMote: Math.max(newest, participant.lastSeenMote), archived: participant.archived && !(newest > participant.lastSeenMote) })
      .go(),
  ]);
  return {
    motes: motes.map(moteView),
    more,
    meta: options.meta === "1" ? view(conversation, members, participant, false) : null,
    participants: participantViews(members),
    attrib: await attribution([...members.map((m) => m.u), ...motes.map((m) => m.sourceId)]),
    sealed: participant.sealedKey,
    protocol: protocolOf(conversation),
    epoch: conversation.epoch ?? 0,
    needs_rekey: conversation.needsRekey ?? false,
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

/**
 * GET /api/conversations/{id}/poll?largest=: whether there is a message newer than `largest`, and
 * the membership log's head seq (read with the access check, no extra round trip).
 */
export async function poll(actor: Actor, id: number, largest: number) {
  const { conversation } = await access(actor, id, "read");
  valid(sequence, largest);
  const has_new = (await newestMote(id)) > largest;
  return conversation.logSeq === undefined ? { has_new } : { has_new, log_seq: conversation.logSeq };
}

/**
 * POST /api/conversations/{id}/append, in three table round trips after authentication: the
 * access check (the participant and the conversation, read together), the message id (an atomic
 * add on the conversation, which moves its newest-message marks along in the same write), and one
 * transaction holding the message with a create-only item for (conversation, user, localid). A
 * retry with the same localid, even racing the first try, stores nothing and answers the message
 * already stored; it costs an id, so ids only ever increase but may skip. `previous_mote` is the
 * id handed out just before: a client that holds another newest id loads the newer ones.
 */
export async function append(actor: Actor, id: number, body: z.input<typeof appendBody>) {
  const { me, conversation } = await access(actor, id, "write");
  const input = valid(appendBody, body);
  const payload = envelopeText(input.payload, "aead", "mote_payload_invalid");
  const signed = signatureOf(conversation, actor, input, payload);
  const attachments = [...new Set(input.attachments ?? [])];
  let moteId = await allocate(id, me.uid, conversation.lastSourceId === me.uid);
  for (let attempt = 1; ; attempt++) {
    const mote: MoteItem = { conversationId: id, id: moteId, sourceId: me.uid, timestamp: nowSeconds(), payload, localid: input.localid, ...signed };
    const { canceled, reasons } = await writeTransaction((tx) => {
      const { mote: m, localid, attachment, conversation: c } = tx;
      return [
      localid.create({ conversationId: id, userId: me.uid, localid: input.localid, moteId }).commit(),
      m.create(mote).commit(),
      // Only the sender's own, completely uploaded files of this conversation (attachments.ts).
      ...attachments.map((aid) =>
        attachment
          .patch({ conversationId: id, id: aid })
          .set({ state: "attached", moteId })
          .remove(["expiresAt"])
          .where((attr, op) => `${op.eq(attr.state, "uploaded")} AND ${op.eq(attr.sourceId, me.uid)}`)
          .commit(),
      ),
      // A signed message only while its epoch is the conversation's and no rekey is pending: a
      // person removed in between never gets a message under the key they hold. And only by the
      // sender's current key (not one they renewed in another browser, or an administrator reset).
      ...(signed
        ? [
            c.check({ id }).where((attr, op) => `${op.eq(attr.epoch, signed.epoch)} AND ${op.eq(attr.needsRekey, false)}`).commit(),
            signerCheck(tx, me.uid, signed.senderKeyId),
          ]
        : []),
      ];
    });
    if (!canceled) return answer(mote);
    if (reasons[0] === "ConditionalCheckFailed") {
      // The same localid won a race with this request: answer its message.
      const winner = await storedFor(id, me.uid, input.localid);
      if (winner) return answer(winner);
    }
    if (signed && reasons.at(-1) === "ConditionalCheckFailed") fail("sender_key_stale");
    if (signed && reasons.at(-2) === "ConditionalCheckFailed") {
      const now = await find(id);
      if (!now) return missing(id);
      fail(now.needsRekey ? "rekey_pending" : "epoch_stale");
    }
    if (reasons.slice(2, 2 + attachments.length).includes("ConditionalCheckFailed")) fail("attachment_invalid");
    if (attempt >= APPEND_ATTEMPTS) throw new Error(`append to ${id} cancelled: ${reasons.join(",")}`);
    // A message already holds this id (one a counter of before handed out): take the next.
    if (reasons[1] === "ConditionalCheckFailed") moteId = await allocate(id, me.uid, true);
  }
}

/**
 * A member's message in a conversation with a log carries its epoch (the current one, with no
 * rekey pending), its signature and the sender's key id, and may carry the log head its sender
 * signed with it; in one without, and from a pickup's guest, none of them. The signature and the
 * head are checked for their shape: clients verify them.
 */
function signatureOf(conversation: ConversationItem, actor: Actor, input: z.infer<typeof appendBody>, payload: string) {
  const given = input.signature !== undefined;
  if (conversation.logSeq === undefined || actor.kind === "guest") {
    if (given) fail("message_signature_invalid", { message: "Messages here are not signed." });
    return undefined;
  }
  if (!given) fail("message_signature_invalid");
  if (conversation.needsRekey) fail("rekey_pending");
  if (input.epoch !== (conversation.epoch ?? 0)) fail("epoch_stale");
  try {
    const parsed = parseSignedMessage({ envelope: payload, signature: input.signature, senderKeyId: input.sender_key_id, ...(input.log_head ? { logHead: input.log_head } : {}) });
    parseEnvelope(parsed.signature, "record-signature");
  } catch (error) {
    if (isCryptoError(error)) fail("message_signature_invalid");
    throw error;
  }
  const head = input.log_head ? { headSeq: input.log_head.seq, headHash: input.log_head.hash } : {};
  return { epoch: input.epoch!, signature: input.signature!, senderKeyId: input.sender_key_id!, ...head };
}

async function storedFor(conversationId: number, userId: number, localid: string): Promise<MoteItem | undefined> {
  const { data } = await db().entities.localid.get({ conversationId, userId, localid }).go();
  if (!data) return undefined;
  const found = await db().entities.mote.get({ conversationId, id: data.moteId }).go();
  return found.data ?? undefined;
}

function answer(mote: MoteItem) {
  return { mote: moteView(mote), previous_mote: Math.max(0, mote.id - 1), localid: mote.localid ?? "" };
}

/**
 * The next message id of the conversation, for `sender`: one atomic update that adds to the
 * counter and keeps what unread needs (views.ts): who got the newest id and the newest id anyone
 * else got. Which of the two writes applies depends on whether the sender also got the newest id
 * before, so it is a condition; `sameSender` is the guess to try first (from the access read).
 * When the guess fails, someone else appended in between: the item is read again and the guess
 * follows it, so two senders writing in turn cannot make each other fail.
 */
async function allocate(id: number, sender: number, sameSender: boolean): Promise<number> {
  const ms = Date.now();
  let same = sameSender;
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await db()
        .entities.conversation.patch({ id })
        .data((attr, op) => {
          if (!same) {
            // The newest id so far was someone else's: it becomes the newest by others than the sender.
            op.set(attr.lastOtherMoteId, op.name(attr.lastMoteId));
            op.set(attr.lastSourceId, sender);
          }
          op.add(attr.lastMoteId, 1);
          op.set(attr.timestamp, Math.floor(ms / 1000));
          op.set(attr.activity, ms);
        })
        .where((attr, op) => (same ? op.eq(attr.lastSourceId, sender) : `(${op.notExists(attr.lastSourceId)} OR ${op.ne(attr.lastSourceId, sender)})`))
        .go({ response: "all_new" });
      return data.lastMoteId!;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // The patch also needs the item to exist: gone in between, the conversation was deleted.
    const now = await find(id);
    if (!now) return missing(id);
    if (attempt >= ALLOCATE_ATTEMPTS) throw new Error(`allocating a message id in ${id}: ${attempt} attempts lost their race`);
    same = now.lastSourceId === sender;
  }
}
