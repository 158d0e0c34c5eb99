import { MOTES_PAGE, groupAppendBody, groupMessageRoutes, type MoteView } from "@sealwork/contracts";
import type * as z from "zod";
import { db, writeTransaction } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { signerCheck } from "../keys/current";
import "../keys/errors";
import { attribution } from "../conversation/views";
import type { Actor } from "../access";
import { reservedPageAccess } from "./access";
import { GroupKeys } from "./keys";
import type { GroupMessageItem } from "./entities";
import "../conversation/errors";
import "./entities";

const nowSeconds = () => Math.floor(Date.now() / 1000);

function moteView(m: GroupMessageItem): MoteView {
  const head = m.headSeq !== undefined && m.headHash !== undefined ? { log_head: { seq: m.headSeq, hash: m.headHash } } : {};
  return { id: m.id, source_id: m.sourceId, timestamp: m.timestamp, payload: m.payload, localid: m.localid, epoch: m.epoch, signature: m.signature, sender_key_id: m.senderKeyId, ...head };
}

/**
 * The group's conversation (spec 000 §2, §7; the reserved conversation page): any member reads
 * and writes; a message is sealed for the group key's current epoch, and none is taken while a
 * removal waits for the next epoch, so a removed member never gets a message under a key they
 * hold. Retries of one local id store one message.
 */
/** The group's conversation page, at the actor's level there: read to load and poll, use to write. */
const conversationAccess = (actor: Actor, groupId: number, action: "read" | "use") => reservedPageAccess(actor, groupId, "conversation", action);

/** The membership log's head seq for an answer, absent while the group has no log (-1). */
const logSeq = (group: { logSeq: number }) => (group.logSeq >= 0 ? { log_seq: group.logSeq } : {});

export namespace GroupConversation {
  /** GET /api/groups/{id}/conversation: a page of messages (the newest, or `before` / `after` an id); the newest marks them seen. */
  export async function load(actor: Actor, groupId: number, input: { before?: number; after?: number }) {
    const query = valid(groupMessageRoutes["GET /api/groups/{id}/conversation"].query, input);
    const { me, group } = await conversationAccess(actor, groupId, "read");
    const messages = db().entities.groupmote.query.byGroup({ groupId });
    const { data } =
      query.after !== undefined
        ? await messages.gt({ id: query.after }).go({ order: "asc", limit: MOTES_PAGE + 1 })
        : await (query.before !== undefined ? messages.lt({ id: query.before }) : messages).go({ order: "desc", limit: MOTES_PAGE + 1 });
    const page = data.slice(0, MOTES_PAGE);
    if (query.after === undefined) page.reverse();
    if (query.before === undefined && query.after === undefined) {
      await db().entities.groupmember.patch({ groupId, userId: me.uid }).set({ lastSeenMote: group.lastMoteId, lastVisit: nowSeconds() }).go();
    }
    return {
      motes: page.map(moteView),
      more: data.length > MOTES_PAGE,
      attrib: await attribution(page.map((m) => m.sourceId)),
      epoch: group.epoch,
      needs_rekey: group.needsRekey,
      ...logSeq(group),
    };
  }

  /**
   * GET /api/groups/{id}/conversation/poll: whether a message newer than `largest` was handed out,
   * and the membership log's head seq (read with the access check, no extra round trip).
   */
  export async function poll(actor: Actor, groupId: number, input: number) {
    const { largest } = valid(groupMessageRoutes["GET /api/groups/{id}/conversation/poll"].query, { largest: input });
    const { group } = await conversationAccess(actor, groupId, "read");
    return { has_new: group.lastMoteId > largest, ...logSeq(group) };
  }

  /** POST /api/groups/{id}/conversation/append: a member's signed message for the current epoch. */
  export async function append(actor: Actor, groupId: number, body: z.input<typeof groupAppendBody>) {
    const input = valid(groupAppendBody, body);
    const { me, group } = await conversationAccess(actor, groupId, "use");
    const payload = envelopeText(input.payload, "aead", "mote_payload_invalid");
    envelopeText(input.signature, "record-signature", "message_signature_invalid");
    GroupKeys.requireCurrentEpoch(group, input.epoch);
    const stored = await storedFor(groupId, me.uid, input.localid);
    if (stored) return answer(stored);
    const { data } = await db().entities.group.update({ id: groupId }).add({ lastMoteId: 1 }).go({ response: "all_new" });
    const mote: GroupMessageItem = {
      groupId,
      id: data.lastMoteId as number,
      sourceId: me.uid,
      timestamp: nowSeconds(),
      payload,
      localid: input.localid,
      epoch: input.epoch,
      signature: input.signature,
      senderKeyId: input.sender_key_id,
      ...(input.log_head ? { headSeq: input.log_head.seq, headHash: input.log_head.hash } : {}),
    };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.grouplocalid.create({ groupId, userId: me.uid, localid: input.localid, moteId: mote.id }).commit(),
      tx.groupmote.create(mote).commit(),
      GroupKeys.currentEpochCheck(tx, groupId, input.epoch),
      // Only by the sender's current key (not one renewed in another browser or reset).
      signerCheck(tx, me.uid, input.sender_key_id),
    ]);
    if (!canceled) return answer(mote);
    const winner = reasons[0] === "ConditionalCheckFailed" ? await storedFor(groupId, me.uid, input.localid) : undefined;
    if (winner) return answer(winner);
    if (reasons[3] === "ConditionalCheckFailed") fail("sender_key_stale");
    return GroupKeys.epochRefusal(groupId);
  }

  async function storedFor(groupId: number, userId: number, localid: string): Promise<GroupMessageItem | undefined> {
    const { data: known } = await db().entities.grouplocalid.get({ groupId, userId, localid }).go();
    if (!known) return undefined;
    const { data } = await db().entities.groupmote.get({ groupId, id: known.moteId }).go();
    return data ?? undefined;
  }

  async function answer(mote: GroupMessageItem) {
    const { data } = await db().entities.groupmote.query.byGroup({ groupId: mote.groupId }).lt({ id: mote.id }).go({ order: "desc", limit: 1 });
    return { mote: moteView(mote), previous_mote: data[0]?.id ?? 0, localid: mote.localid };
  }
}
