import type { MoteView, Response } from "@sealwork/contracts";
import { type GroupMessagePlace, type IdentityKeys, isCryptoError, openMessage, verifyMessageSignature } from "@sealwork/crypto";
import { call } from "../../../lib/api";
import { TEST_CHECKS, checkOff } from "../../../lib/build-settings";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { type Message, type MessagePayload, type OpenedMessage, isDistributionError, openChainedMessages, sealChainedMessage, shownMessage } from "../../conversations";
import { type GroupRing, forgetGroupRing, groupRingBehind, openGroupRing } from "../keys/group-ring";

/**
 * The group's own conversation (docs/protocol.md, "Group messages"): messages sealed under the
 * group key's epoch and signed by their senders, read with the group's verified ring
 * (keys/group-ring.ts). The server's answers say where a message is; the ring says whether its
 * sender was a member then and which key opens it.
 */

export type GroupMessagesPage = Response<"GET /api/groups/{id}/conversation">;

/** GET /api/groups/{id}/conversation: 50 messages, oldest first; `before` pages back, `after` forward. The newest page marks them seen. */
export function fetchGroupMessages(groupId: number, query: { before?: number; after?: number }, signal?: AbortSignal): Promise<GroupMessagesPage> {
  return call("GET /api/groups/{id}/conversation", { params: { id: groupId }, query, signal });
}

/**
 * GET /api/groups/{id}/conversation/poll: whether there is news: a message newer than `largest`,
 * or a membership log further on than the one verified here (a member added, an admin made, with
 * no message after it), which the news' load then verifies.
 */
export async function pollGroupMessages(groupId: number, largest: number, signal: AbortSignal): Promise<boolean> {
  const reply = await call("GET /api/groups/{id}/conversation/poll", { params: { id: groupId }, query: { largest }, signal });
  if (reply.log_seq !== undefined && (await groupRingBehind(groupId, reply.log_seq))) return true;
  return reply.has_new;
}

/** POST /api/groups/{id}/conversation/append (idempotent per local id). */
export function appendGroupMessage(groupId: number, body: { localid: string; payload: string; epoch: number; signature: string; sender_key_id: string }) {
  return call("POST /api/groups/{id}/conversation/append", { params: { id: groupId }, body });
}

/**
 * The group's ring as new as what the server says now (its epoch, whether a rekey is pending, the
 * log's head seq): a ring verified before someone's addition, removal or rekey is verified again,
 * once. The server can only make the client verify again; what it verifies is the log's word.
 */
export async function currentGroupRing(groupId: number, holder: UnlockedKeys, server: { epoch: number; needs_rekey: boolean; log_seq?: number }): Promise<GroupRing> {
  if (server.log_seq !== undefined) await groupRingBehind(groupId, server.log_seq);
  const ring = await openGroupRing(groupId, holder);
  if (ring.epoch > server.epoch || (ring.epoch === server.epoch && ring.writable === !server.needs_rekey)) return ring;
  forgetGroupRing(groupId);
  return openGroupRing(groupId, holder);
}

const place = (ring: GroupRing, epoch: number, senderId: number, localid: string): GroupMessagePlace => ({ v: 2, groupId: ring.groupId, epoch, senderId, localid });

/** What POST …/append takes for a message of the ring's current epoch, signed by `me` (naming their previous one). */
export async function sealGroupMessage(ring: GroupRing, me: IdentityKeys, localid: string, payload: MessagePayload) {
  const signed = await sealChainedMessage(ring, place(ring, ring.epoch, me.userId, localid), payload, me);
  return { localid, payload: signed.envelope, epoch: ring.epoch, signature: signed.signature, sender_key_id: signed.senderKeyId, log_head: ring.log.head };
}

/**
 * Opens stored messages: each must name an epoch, be signed by a sender who was a member at some
 * moment of it (the verified log), with a signature that covers this group, epoch, sender, local
 * id and envelope (or be named by a later message of the same sender whose signature does:
 * openChainedMessages); then it opens with that epoch's key. Anything else shows as not verified
 * (never under the name the server gives it); a verified message that does not open shows as
 * 'Invalid mote payload'.
 */
export async function openGroupMessages(ring: GroupRing, motes: MoteView[]): Promise<Message[]> {
  const opened = await openChainedMessages(
    ring,
    motes,
    ({ source_id: senderId, localid, epoch, signature, sender_key_id: senderKeyId }) =>
      localid !== null && epoch !== null && signature !== null && senderKeyId !== null && epoch <= ring.epoch && ring.membersOf(epoch).has(senderId)
        ? place(ring, epoch, senderId, localid)
        : null,
    (mote) => openOne(ring, mote),
  );
  return motes.map((mote, i) => shownMessage(mote, opened[i]!.payload, opened[i]!.verification));
}

/** One message by its own signature (what openChainedMessages does not take, or cannot read). */
async function openOne(ring: GroupRing, mote: MoteView): Promise<OpenedMessage> {
  const shown = (payload: MessagePayload | null, verification: "signed" | "invalid"): OpenedMessage => ({ payload, verification });
  const { source_id: senderId, localid, epoch, signature, sender_key_id: senderKeyId } = mote;
  if (localid === null || epoch === null || signature === null || senderKeyId === null || epoch > ring.epoch || !ring.membersOf(epoch).has(senderId)) {
    return shown(null, "invalid");
  }
  const where = place(ring, epoch, senderId, localid);
  const signed = { envelope: mote.payload, signature, senderKeyId, ...(mote.log_head ? { logHead: mote.log_head } : {}) };
  try {
    await verifyMessageSignature(signed, where, ring.keysOf);
    // The head its sender signed must be in this client's log: a fork refuses the page (test build: not compared with "message-log-head" off).
    if (ring.checkHead && !(TEST_CHECKS && checkOff("message-log-head"))) await ring.checkHead(signed, where);
  } catch (error) {
    if (isDistributionError(error) && error.reason === "log_fork") throw error;
    if (isCryptoError(error) || isDistributionError(error)) return shown(null, "invalid");
    throw error;
  }
  try {
    return shown(await openMessage(await ring.keyFor(epoch), mote.payload, where), "signed");
  } catch (error) {
    // Signed by a member, but not a payload this client can open (or an epoch it cannot reach).
    if (isCryptoError(error) || isDistributionError(error)) return shown(null, "signed");
    throw error;
  }
}
