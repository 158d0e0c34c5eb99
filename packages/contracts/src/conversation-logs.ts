import * as z from "zod";
import { MEMBERS } from "./access";
import { aeadText, conversationParams, participantsResult, signedCopy, SIGNED_PARTICIPANTS_MAX, LOG_APPEND_MAX, TITLE_MAX } from "./conversations";
import { signedRecordObject } from "./identities";
import { route, type RouteContract } from "./route";

/**
 * The membership log of a conversation (protocol v2, docs/protocol.md §14.8; docs/api.md, "Signed
 * conversations"): reading it with each epoch's record and link and one's own key copy, and
 * appending signed entries with what they need. A module of its own, so that areas which only
 * need the conversation shapes (pickups, the users area through them) do not carry these.
 * Its error codes are the conversations area's.
 */

/** A head of the membership log: its last entry's seq and hash. */
export const logHead = z.object({ seq: z.number(), hash: z.string() });

/** GET /api/conversations/{id}/log: what a participant verifies before using the key (docs/protocol.md §14.8). */
export const conversationLog = z.object({
  /** Every entry, seq 0 first (`SignedMembershipEntry`); empty for a conversation without a log (protocol v1). */
  entries: z.array(signedRecordObject),
  /**
   * Each epoch: its newest conversation record (`SignedConversation`; null while a rekey is
   * pending for it) and, from epoch 1, the link that carries the epoch before's key.
   */
  epochs: z.array(z.object({ epoch: z.number(), record: signedRecordObject.nullable(), link: z.string().nullable() })),
  /** The caller's copy of the current epoch's key (`SignedSealedKey`), or null (no log, or none yet). */
  copy: signedRecordObject.nullable(),
  epoch: z.number(),
  needs_rekey: z.boolean(),
});

/**
 * POST /api/conversations/{id}/log: entries that continue the log (or start it, for a conversation
 * from before logs), all signed by the caller, with what they need: a record for the new head
 * whenever no rekey is pending after them; key copies for the people added (for everyone, when
 * the batch starts an epoch); the link to the previous epoch's key, and optionally the title
 * sealed anew, when it starts an epoch.
 */
export const logAppend = z.object({
  entries: z.array(signedRecordObject).min(1).max(LOG_APPEND_MAX),
  record: signedRecordObject.optional(),
  copies: z.array(signedCopy).min(1).max(SIGNED_PARTICIPANTS_MAX).optional(),
  link: aeadText(1024).optional(),
  title: aeadText(TITLE_MAX).optional(),
});
export type LogAppend = z.infer<typeof logAppend>;

export const logAppended = participantsResult.extend({ head: logHead, epoch: z.number(), needs_rekey: z.boolean() });

/** The membership log's routes (merged in index.ts; served by the conversations area). */
export const conversationLogRoutes = {
  "GET /api/conversations/{id}/log": route({ access: MEMBERS, params: conversationParams, response: conversationLog }),
  "POST /api/conversations/{id}/log": route({ access: MEMBERS, params: conversationParams, body: logAppend, response: logAppended }),
} satisfies Record<string, RouteContract>;
