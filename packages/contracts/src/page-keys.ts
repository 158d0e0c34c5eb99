import * as z from "zod";
import { MEMBERS } from "./access";
import { aeadText } from "./conversations";
import { DOCKEY_MAX } from "./drive";
import * as f from "./fields";
import { signedRecordUpTo } from "./identities";
import { pageParams } from "./pages";
import { route, type RouteContract } from "./route";

/**
 * Page keys (docs/protocol.md, "Restricted pages"; docs/api.md, "Page keys"): a page whose read
 * permission is narrower than the whole group has a key of its own, per generation, sealed for
 * each reader's verified key and signed by the administrator who made it (the crypto package's
 * SignedSealedKey, JSON). Its cards' and comments' keys are wrapped under it, not under the
 * group key. The server stores one copy per reader and hands each member their own only.
 */

/** A page key generation: 1, 2, …; a record names the one its key is wrapped under. */
export const pageKeyGeneration = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** One copy is a few hundred characters. */
export const PAGE_KEY_COPY_MAX_CHARS = 4 * 1024;
/** Copies one request stores (one transaction with the page and the generation). */
export const PAGE_KEY_COPIES_MAX = 90;

export const pageKeyCopy = z.object({ user_id: f.id, copy: signedRecordUpTo(PAGE_KEY_COPY_MAX_CHARS) });

/**
 * POST /api/pages/{id}/keys (group administrators): a new generation (the page's current one and
 * 1; from the second on with `link`, the one before under it), or more copies of the current
 * generation (for readers without one). Copies are for readers of the page only, once each,
 * sealed by the caller.
 */
export const pageKeyBody = z.strictObject({
  generation: pageKeyGeneration,
  link: aeadText(DOCKEY_MAX).optional(),
  copies: z.array(pageKeyCopy).min(1).max(PAGE_KEY_COPIES_MAX),
});

export const pageKeysView = z.object({
  /** Whether the page's read permission is narrower than the group: its records go under its key. */
  restricted: z.boolean(),
  /** The current generation; 0 while it has none. */
  generation: z.number(),
  /** The caller's own copies, by generation. */
  copies: z.array(z.object({ generation: z.number(), copy: z.record(z.string(), z.unknown()) })),
  /** Each generation's link to the one before (generation 2 on). */
  links: z.array(z.object({ generation: z.number(), link: z.string() })),
  /**
   * For the page's administrators: readers without a copy of the current generation (`missing`,
   * with their ids), and holders of one who read the page no more (`former`: a new generation is due).
   */
  rekey: z.object({ readers: z.array(z.number()), missing: z.array(z.number()), former: z.array(z.number()) }).nullable(),
});
export type PageKeysView = z.infer<typeof pageKeysView>;

export const pageKeyRoutes = {
  "GET /api/pages/{id}/keys": route({ access: MEMBERS, params: pageParams, response: pageKeysView }),
  "POST /api/pages/{id}/keys": route({ access: MEMBERS, params: pageParams, body: pageKeyBody, response: pageKeysView }),
} satisfies Record<string, RouteContract>;

export const pageKeyErrorCodes = ["page_key_invalid", "page_key_stale", "page_key_required", "page_key_unexpected"] as const;
