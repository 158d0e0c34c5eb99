import * as z from "zod";
import { ANYONE, MEMBERS } from "./access";
import { route, type RouteContract } from "./route";
import { aeadText, conversationParams, conversationView, sealedText, TITLE_MAX } from "./conversations";
import * as f from "./fields";

/**
 * Pickups (spec 000 §2–§9; docs/api.md Pickups; docs/protocol.md Pickups): a conversation with
 * recipient 0 and an outside guest (user id 0). The server never receives the pickup code, the
 * security code or the link secret to keep: it finds a pickup by a lookup hash the client
 * computes, checks the guest's auth key against a verifier, and mails the link once, or only a
 * notice without it when the creator passes the link on themselves.
 */

/** Spec 000 §9: expiry options in days, default 14. */
export const PICKUP_EXPIRY_DAYS = [2, 7, 14, 21, 30, 60, 90, 180, 365] as const;
export const PICKUP_EXPIRY_DEFAULT = 14;
export { PICKUP_MAX_WRONG } from "./pickup-limits";

/** base64url of 32 bytes: the lookup hash, an auth key, a verifier. */
const b64u32 = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Expected 32 bytes, base64url.");
export const pickupLookupParams = z.object({ lookup: b64u32 });

export const newPickup = z.object({
  /** The id reserved by POST /api/conversations/reserve: the keys and title are bound to it. */
  conversation_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  email: f.email,
  expiredays: z
    .number()
    .int()
    .refine((d) => (PICKUP_EXPIRY_DAYS as readonly number[]).includes(d), { message: `One of ${PICKUP_EXPIRY_DAYS.join(", ")} days.` })
    .default(PICKUP_EXPIRY_DEFAULT),
  title: aeadText(TITLE_MAX).optional(),
  /** pickupLookup(code, instance name). */
  lookup: b64u32,
  /** pickupVerifier(auth key). */
  verifier: b64u32,
  /** The `pickup-wrap` envelope (canonical text): the conversation key for the guest. */
  wrapped: z.string().min(1).max(1024),
  /** The conversation key sealed for the creator. */
  sealed: sealedText,
  /**
   * The link for the email (`${APP_URL}/login#<fragment>`): mailed once, never stored. Left out
   * when the creator sends the link themselves: the server then never sees the link's secret or
   * the code, and mails the recipient a notice without the link (docs/protocol.md, Pickups).
   */
  link: z.string().min(1).max(512).optional(),
});
export type NewPickup = z.infer<typeof newPickup>;

/** What the creator sees of a pickup (the conversation list's `pickups`, keyed by conversation). */
export const pickupView = z.object({
  conversation_id: z.number(),
  email: z.string(),
  /** Seconds, or -1 while nobody has collected it. */
  redeem_timestamp: z.number(),
  /** Seconds: the validity end. */
  expire_timestamp: z.number(),
  /** Whether the guest's key needs the link's secret (else the typed code opens it). */
  link_secret: z.boolean(),
  /** Locked after PICKUP_MAX_WRONG wrong security codes. */
  locked: z.boolean(),
});
export type PickupView = z.infer<typeof pickupView>;

export const pickupCreated = z.object({ conversation_id: z.number(), conversation: conversationView, pickup: pickupView });

/** GET /api/pickup/{lookup}: what the guest needs to derive the auth key. */
export const pickupMeta = z.object({
  conversation_id: z.number(),
  /** The Argon2id salt and parameters of the pickup-wrap envelope. */
  salt: z.string(),
  memoryKiB: z.number(),
  iterations: z.number(),
  parallelism: z.number(),
  link_secret: z.boolean(),
  expire_timestamp: z.number(),
  redeem_timestamp: z.number(),
});

export const pickupRecoverBody = z.object({ auth: b64u32 });

/** POST /api/pickup/recover/{lookup}: the guest's session and the wrapped conversation key. */
export const pickupRecovered = z.object({
  id: z.literal(0),
  name: z.string(),
  api_token: z.string(),
  conversation_id: z.number(),
  /** The `pickup-wrap` envelope (canonical text). */
  wrapped: z.string(),
  expire_timestamp: z.number(),
  redeem_timestamp: z.number(),
});

export const conversationDeleted = z.object({ deleted: z.literal(true) });

/** Pickups, spec 000 §2–§9: the routes, by "METHOD /path" (merged in index.ts). */
export const pickupRoutes = {
  "POST /api/pickup": route({ access: MEMBERS, body: newPickup, response: pickupCreated }),
  "GET /api/pickup/{lookup}": route({
    access: ANYONE,
    params: pickupLookupParams,
    query: z.object({ meta: z.enum(["0", "1"]).optional() }),
    response: pickupMeta,
  }),
  "POST /api/pickup/recover/{lookup}": route({ access: ANYONE, params: pickupLookupParams, body: pickupRecoverBody, response: pickupRecovered }),
  /** Deletes a pickup (its author only) with its messages and files; ordinary conversations are archived instead. */
  "DELETE /api/conversations/{id}": route({ access: MEMBERS, params: conversationParams, response: conversationDeleted }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const pickupErrorCodes = ["pickup_not_found", "pickup_auth_incorrect", "pickup_delete_forbidden", "pickup_participants", "pickup_admin", "pickup_invalid", "pickup_exists", "pickup_limit", "conversation_not_pickup"] as const;
