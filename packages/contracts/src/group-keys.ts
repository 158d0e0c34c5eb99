import * as z from "zod";
import { MEMBERS } from "./access";
import * as f from "./fields";
import { GROUP_LOG_APPEND_MAX, groupParams, groupRecordObject, logAppendPart, wrapPart } from "./groups";
import { signedRecordObject } from "./identities";
import { route, type RouteContract } from "./route";

/**
 * The group key's routes (docs/protocol.md; docs/api.md, Group keys), modelled on the signed
 * conversations: the group's membership log (entries appended on the condition that the caller
 * has the head), a signed group record per epoch, the link from each epoch to the one before, and
 * each member's wraps. The server never reads any of it: entries, records and wraps are JSON
 * objects it stores and serves as they came (at most 8 KiB each), links are text. It enforces
 * who may write, the head, the epoch order and that wraps go to members only.
 */

/**
 * Wraps one request may store (a new epoch of a group of 1,000 in one request; about 0.5 MB of
 * the 1 MiB body). The server stores them in transactions of WRAPS_PER_TRANSACTION: each wrap
 * with a check that its member is still one (two items), and a transaction holds 100.
 */
export const WRAPS_MAX = 1000;
export const WRAPS_PER_TRANSACTION = 50;
export const LINK_MAX = 4096;

export const groupEpochView = z.object({ epoch: z.number(), record: groupRecordObject.nullable(), link: z.string().nullable() });

export const groupLog = z.object({
  /** Every entry, seq 0 first, as stored. */
  entries: z.array(z.object({ seq: z.number(), entry: signedRecordObject })),
  /** The last entry's seq; -1 while the log is empty. */
  head: z.number(),
  epoch: z.number(),
  needs_rekey: z.boolean(),
  /**
   * Each epoch from 0 (with `epochs=current`: the current one only): its newest signed group record
   * (null before one is stored) and, from epoch 1, the link that carries the previous epoch's key.
   */
  epochs: z.array(groupEpochView),
});

/** GET …/log's query: `epochs=current` serves the current epoch's record and link only (older ones: GET …/epochs/{epoch}, as a reader needs them). */
export const groupLogQuery = z.object({ epochs: z.enum(["all", "current"]).default("all") });
export const groupEpochParams = groupParams.extend({ epoch: f.indexParam });

/**
 * POST /api/groups/{id}/log (group administrators): entries after `head`; optionally the record of
 * the (new) current epoch, and `rekey` to start epoch `epoch` (the current one + 1) with its link.
 */
export const groupLogAppend = z.object({
  head: logAppendPart.shape.head,
  entries: z.array(signedRecordObject).max(GROUP_LOG_APPEND_MAX).default([]),
  record: groupRecordObject.optional(),
  rekey: z.object({ epoch: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), link: z.string().min(1).max(LINK_MAX) }).optional(),
});
export const groupLogAppended = z.object({ head: z.number(), epoch: z.number(), needs_rekey: z.boolean() });

export const wrapsBody = z.object({
  epoch: wrapPart.shape.epoch,
  wraps: z.array(z.object({ user_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), wrap: signedRecordObject })).min(1).max(WRAPS_MAX),
});
export const myWraps = z.object({
  epoch: z.number(),
  /** The caller's own wraps, oldest epoch first: nobody reads another member's. */
  wraps: z.array(z.object({ epoch: z.number(), wrap: signedRecordObject, sealer_id: z.number() })),
});
/** The gaps a group administrator's browser completes, and the super administrator's analysis shows. */
export const wrapStatus = z.object({
  epoch: z.number(),
  members: z.number(),
  /** Members with an account key but no wrap of the current epoch. */
  missing_wraps: z.array(z.number()),
  /** Members without an account key yet (pending invitees): they get their wrap once it appears. */
  missing_keys: z.array(z.number()),
  /**
   * Members whose account key moved (renewed, or reset after they lost it) since their wrap was
   * made: it is for a key they no longer hold, so the next epoch is due (sealed for current keys).
   */
  moved_keys: z.array(z.number()),
  /** The log's head (-1: no log yet) and whether a member left since the current epoch began (the next epoch is due). */
  log_head: z.number(),
  needs_rekey: z.boolean(),
});

export const groupKeyRoutes = {
  "GET /api/groups/{id}/log": route({ access: MEMBERS, params: groupParams, query: groupLogQuery, response: groupLog }),
  "GET /api/groups/{id}/epochs/{epoch}": route({ access: MEMBERS, params: groupEpochParams, response: groupEpochView }),
  "POST /api/groups/{id}/log": route({ access: MEMBERS, params: groupParams, body: groupLogAppend, response: groupLogAppended }),
  "GET /api/groups/{id}/wraps": route({ access: MEMBERS, params: groupParams, response: myWraps }),
  "POST /api/groups/{id}/wraps": route({ access: MEMBERS, params: groupParams, body: wrapsBody, response: z.object({ stored: z.array(z.number()) }) }),
  "GET /api/groups/{id}/wraps/status": route({ access: MEMBERS, params: groupParams, response: wrapStatus }),
} satisfies Record<string, RouteContract>;

export const groupKeyErrorCodes = ["group_rekey_invalid"] as const;
