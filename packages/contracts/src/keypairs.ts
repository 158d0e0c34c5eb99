import * as z from "zod";
import { ANYONE, MEMBERS } from "./access";
import * as f from "./fields";
import { backupFilename, envelopeObject, rawPublicKey } from "./fields";
import { identityBundle, signedRecordObject } from "./identities";
import { instanceInfo } from "./instance";
import { route, type RouteContract } from "./route";

/**
 * Account keys and the backup store (spec 000 §3, §5, §7, §9): shapes shared by the handlers and
 * the web client. The server only ever sees public keys, signatures and the secure-code-wrap
 * envelope (ciphertext); envelopes travel as JSON objects and are checked in depth by the domain
 * with @sealwork/crypto.
 */

/** Spec 000 §9: the clocks of client and server may differ by this much for a remote key lookup. */
export const KEY_LOOKUP_CLOCK_SKEW_SECONDS = 3600;
/** Spec 000 §5, §9: the key state's server time must be within this of the local clock (SNTL). */
export const SENTINEL_TOLERANCE_SECONDS = 24 * 3600;
/** Backups in the unauthenticated store live this long unless the saver asks otherwise. */
export const BACKUP_DEFAULT_DAYS = 30;
/** The longest pickup expiry the spec offers (365 days). */
export const BACKUP_MAX_DAYS = 365;
export const BACKUP_MAX_CONTENTS = 32 * 1024;

export { backupFilename, envelopeObject, rawPublicKey, tempPublicKey } from "./fields";

export const keypairType = z.enum(["public", "temp"]);

/** What the server tells about a stored secure-code-wrap backup without handing it out. */
export const backupMeta = z.object({
  kind: z.literal("secure-code-wrap"),
  alg: z.string(),
  memoryKiB: z.number(),
  iterations: z.number(),
  parallelism: z.number(),
});

export const keypairView = z.object({
  id: z.number(),
  uid: z.number(),
  type: keypairType,
  /** False once another key replaced this one, or the key was invalidated. */
  valid: z.boolean(),
  /** Server time (seconds) when the key was registered. */
  sentinel: z.number(),
  /** Client time (seconds) at creation, inside the signed record. */
  timestamp: z.number(),
  encrypt_public: z.string(),
  sign_public: z.string(),
  /** record-signature envelope over `keypairRecord(...)` by sign_public. */
  signature: envelopeObject,
  backup: backupMeta.nullable(),
});
export type KeypairView = z.infer<typeof keypairView>;

/** GET /api/keypairs?fetch_only=1&uid=…: enough to decide whether a user's key may be used. */
export const keypairFetchOnly = z.object({
  id: z.number().nullable(),
  valid: z.boolean(),
  sentinel: z.number().nullable(),
  /** Server time (seconds) of this answer. */
  now: z.number(),
});
export type KeypairFetchOnly = z.infer<typeof keypairFetchOnly>;

export const keypairPublic = z.object({
  encrypt_public: z.string(),
  sign_public: z.string(),
  signature: envelopeObject,
  metadata: z.object({ uid: z.number(), type: keypairType, valid: z.boolean(), timestamp: z.number(), sentinel: z.number() }),
});
export type KeypairPublic = z.infer<typeof keypairPublic>;

export const keypairTarget = z.object({
  user_id: z.number(),
  id: z.number(),
  encrypt_public: z.string(),
  sign_public: z.string(),
  timestamp: z.number(),
  signature: envelopeObject,
  /** type=group: the member's identity as GET /api/identities/{id} serves it, which a client verifies before it seals for the key. */
  identity: identityBundle.optional(),
});
export type KeypairTarget = z.infer<typeof keypairTarget>;

export const newKeypair = z.object({
  encrypt_public: rawPublicKey,
  sign_public: rawPublicKey,
  timestamp: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  signature: envelopeObject,
  backup: envelopeObject,
  /** The id of the key this one replaces (the caller's current key), or null for the first. */
  last_key: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
  /**
   * Protocol v2: the identity record of these keys (a `SignedIdentity`), stored with them in one
   * transaction: the setup administrator's root, an invitee's birth record at takeover (required
   * when the invitation is signed), or a rotation certified by the key it replaces.
   */
  identity: signedRecordObject.optional(),
});
export type NewKeypair = z.infer<typeof newKeypair>;

export const backupSave = z.object({
  filename: backupFilename,
  /** Ciphertext made by the client (an envelope as text); the server cannot read it. */
  contents: z.string().min(1).max(BACKUP_MAX_CONTENTS),
  /** Kept in the clear and handed to whoever loads the entry: plain text only. */
  signature: f.plainText(z.string().max(4096)).optional(),
  api_message: f.plainMultilineText(z.string().max(4096)).optional(),
  expiredays: z.number().int().min(1).max(BACKUP_MAX_DAYS).optional(),
});

export const backupEntry = z.object({
  filename: z.string(),
  contents: z.string(),
  signature: z.string().nullable(),
  api_message: z.string().nullable(),
  /** Seconds since the epoch after which the entry is gone. */
  expires: z.number(),
});

/**
 * The record a user signs when registering a key: its own type and subject, so that it cannot
 * stand in for another kind of record or another user (docs/protocol.md §6). Client and server
 * both build it here, so they sign and verify the same thing.
 */
export function keypairRecord(input: { uid: number; encryptPublic: string; signPublic: string; timestamp: number }) {
  return { type: "keypair", uid: input.uid, encryptPublic: input.encryptPublic, signPublic: input.signPublic, timestamp: input.timestamp };
}

/**
 * The record an administrator's browser signs for an invitee's temporary key (type "temp"). The
 * invitee's account id does not exist yet when it is signed, so the record carries none; its own
 * type keeps it from standing in for a normal key record, and the invitee replaces the temporary
 * key by a normal, uid-bound record when taking it over (docs/protocol.md §13).
 */
export function tempKeypairRecord(input: { encryptPublic: string; signPublic: string; timestamp: number }) {
  return { type: "temp-keypair", encryptPublic: input.encryptPublic, signPublic: input.signPublic, timestamp: input.timestamp };
}

export const backupLoad = z.object({ filename: backupFilename });

/** Account keys and the backup store, spec 000 §3, §5, §7: the routes, by "METHOD /path" (merged in index.ts). */
export const keypairRoutes = {
  "GET /api/keypairs": route({
    access: MEMBERS,
    // Without fetch_only: the caller's own key state. With fetch_only=1&uid=: another user's.
    query: z
      .object({ fetch_only: z.enum(["1", "0"]).optional(), uid: f.idParam.optional() })
      .refine((q) => q.fetch_only !== "1" || q.uid !== undefined, { message: "fetch_only needs a uid.", path: ["uid"] }),
    response: z.union([
      z.object({
        keypair: keypairView.nullable(),
        // Nothing about secure codes: whether they are off is the SPA build's setting (issue 11, item 3).
        instance: instanceInfo,
        schemas: z.array(z.unknown()),
        actions: z.array(z.unknown()),
        series: z.array(z.unknown()),
        now: z.number(),
      }),
      keypairFetchOnly,
    ]),
  }),
  "POST /api/keypairs": route({ access: MEMBERS, body: newKeypair, response: keypairView }),
  "GET /api/keypairs/target": route({
    access: MEMBERS,
    query: z.object({ type: z.enum(["user", "group"]), id: f.idParam }),
    response: z.array(keypairTarget),
  }),
  "GET /api/keypairs/{id}": route({ access: MEMBERS, params: z.object({ id: f.idParam }), response: keypairPublic }),
  "POST /api/keypairs/{id}/recover": route({
    access: MEMBERS,
    params: z.object({ id: f.idParam }),
    response: z.object({ id: z.number(), recover: envelopeObject }),
  }),
  "POST /api/backup/save": route({
    access: ANYONE,
    body: backupSave,
    response: z.object({ filename: z.string(), expires: z.number() }),
  }),
  "POST /api/backup/load": route({ access: ANYONE, body: backupLoad, response: backupEntry }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const keypairErrorCodes = ["keypair_stale", "sender_key_stale", "keypair_invalid", "keypair_signature_invalid", "backup_invalid", "clock_skew", "keypair_not_found", "backup_not_found", "backup_exists"] as const;
