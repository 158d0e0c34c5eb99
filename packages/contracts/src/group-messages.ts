import * as z from "zod";
import { MEMBERS } from "./access";
import { MOTE_PAYLOAD_MAX, aeadText, appendResult, attribution, keyIdText, localid, messageLogHead, moteView, signatureText } from "./conversations";
import { groupParams } from "./groups";
import { route, type RouteContract } from "./route";

/**
 * A group's conversation (its reserved conversation page; spec 000 §2 and §7, where the
 * conversation routes take the group's id with group=1): messages sealed under the group key's
 * current epoch by any member, signed by their sender. The server sees ids, senders, times and
 * sizes; payloads are `aead` envelopes. Answers have the conversation routes' shapes.
 */
const sequence = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const groupAppendBody = z.object({
  localid,
  payload: aeadText(MOTE_PAYLOAD_MAX),
  /** The group key's epoch it is sealed for: the current one (409 epoch_stale otherwise; 409 rekey_pending after a removal until the next epoch). */
  epoch: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  signature: signatureText,
  sender_key_id: keyIdText,
  /** The group log's head the sender verified, which the signature covers (docs/protocol.md §14.8, heads in messages). */
  log_head: messageLogHead.optional(),
});

export const groupConversationPage = z.object({
  /** Oldest first. */
  motes: z.array(moteView),
  more: z.boolean(),
  /** The senders' names (members who left included). */
  attrib: attribution,
  epoch: z.number(),
  needs_rekey: z.boolean(),
  /**
   * The membership log's head seq (absent before the group has a log): a page verified against an
   * older log verifies it afresh, so a member added since is known as a sender.
   */
  log_seq: z.number().int().min(0).optional(),
});

/** The poll's answer: a message newer than `largest`, and the log's head seq as on a page (a change of members with no message after it). */
export const groupConversationPoll = z.object({ has_new: z.boolean(), log_seq: z.number().int().min(0).optional() });

export const groupMessageRoutes = {
  "GET /api/groups/{id}/conversation": route({
    access: MEMBERS,
    params: groupParams,
    query: z.object({ before: sequence.optional(), after: sequence.optional() }),
    response: groupConversationPage,
  }),
  "GET /api/groups/{id}/conversation/poll": route({ access: MEMBERS, params: groupParams, query: z.object({ largest: sequence }), response: groupConversationPoll }),
  "POST /api/groups/{id}/conversation/append": route({ access: MEMBERS, params: groupParams, body: groupAppendBody, response: appendResult }),
} satisfies Record<string, RouteContract>;
