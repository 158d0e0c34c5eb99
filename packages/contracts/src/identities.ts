import * as z from "zod";
import { ADMINS, MEMBERS } from "./access";
import * as f from "./fields";
import { envelopeObject, tempPublicKey } from "./fields";
import { route, type RouteContract } from "./route";
import { publicUser } from "./users";

/**
 * Protocol v2's identities (docs/protocol.md §14; docs/api.md, "Identities"): each user's signed
 * identity records, the instance's anchors, admin certificates, and each user's encrypted pins.
 * Signed records travel as JSON objects in the crypto package's shapes (`SignedIdentity`,
 * `SignedInvitation`, `SignedAdmin`); the server checks their exact shape and signatures with
 * @sealwork/crypto, and every client checks them again (it does not take the server's word).
 */

/** A signed record is a few hundred bytes (an invited birth record with its invitation about 1.5 KiB). */
export const SIGNED_RECORD_MAX_CHARS = 8 * 1024;
/** The encrypted pins: an `aead` envelope's text (some thousands of contacts fit). */
export const PINS_MAX_CHARS = 512 * 1024;

/**
 * A group's signed record names every member (about 70 characters each): 300 K characters hold
 * about 4,000 members and keep the epoch's item under DynamoDB's 400 KB.
 */
export const GROUP_RECORD_MAX_CHARS = 300 * 1024;

/** A signed v2 record as a JSON object, at most `max` characters as JSON; its shape is the crypto package's. */
export const signedRecordUpTo = (max: number) =>
  z.record(z.string().max(64), z.unknown()).refine((value) => JSON.stringify(value).length <= max, `A signed record has at most ${max} characters.`);

/** A signed v2 record of at most SIGNED_RECORD_MAX_CHARS. */
export const signedRecordObject = signedRecordUpTo(SIGNED_RECORD_MAX_CHARS);

/** One user's identity records, birth first: the crypto package's `IdentityRecords`. */
const identityRecords = z.object({ userId: z.number(), records: z.array(signedRecordObject) });

/** GET /api/identities/{id}: what a client needs to verify a user's identity in one request. */
export const identityBundle = z.object({
  /** `IdentityChain` for verifyIdentity: the user's records, the issuers' chains they depend on, admin certificates. Null: no identity yet. */
  chain: identityRecords
    .extend({ issuers: z.array(identityRecords), admins: z.array(signedRecordObject) })
    .nullable(),
  /**
   * A user without an identity yet (an account from protocol version 1): their current v1 key
   * with its self-signature over `keypairRecord`, which clients pin on first use as a contact
   * that is "not certified" (docs/protocol.md §14.13).
   */
  legacy: z
    .object({
      id: z.number(),
      encrypt_public: z.string(),
      sign_public: z.string(),
      timestamp: z.number(),
      signature: z.record(z.string(), z.unknown()),
      /**
       * An administrator's certificate for this key (`SignedLegacyKey`, docs/protocol.md §14.14)
       * and the certifying administrator's chain (`IdentityChain`) to verify it with; null while
       * it has none.
       */
      certificate: signedRecordObject.nullable(),
      issuer: identityRecords.extend({ issuers: z.array(identityRecords), admins: z.array(signedRecordObject) }).nullable(),
    })
    .nullable(),
});
export type IdentityBundle = z.infer<typeof identityBundle>;

export const identityPublish = z.object({ identity: signedRecordObject });
export const adminCertificateBody = z.object({ certificate: signedRecordObject });
export const legacyRuleBody = z.object({ rule: signedRecordObject });

export const identityPublished = z.object({ user_id: z.number(), seq: z.number(), key_id: z.string() });

/** How long a key reset may be taken over (its code handed to the user) before an administrator must make a new one. */
export const KEY_RESET_DAYS = 7;

/**
 * POST /api/identities/{id}/reset: an administrator resets the key of a user who lost it
 * (docs/protocol.md §14.3, "Key resets"; spec 000 §4, *invalidated*). Their browser made
 * temporary keys and wrapped them under a code it shows the administrator only; the server makes
 * the temporary key the user's current key, so that their key popup asks for the code, as at an
 * invitation's takeover.
 */
export const keyResetBody = z.object({
  /** The temporary key's public halves and their signature over `tempKeypairRecord(...)`. */
  public_key: tempPublicKey,
  /** The temporary keys wrapped under the reset code (a secure-code-wrap envelope). */
  transit: envelopeObject,
  /** The `SignedKeyReset` naming these temporary keys, the user and the key they lose. */
  reset: signedRecordObject,
});
export const keyResetMade = z.object({
  user_id: z.number(),
  /** The temporary key's id, now the user's current key. */
  keypair_id: z.number(),
  /** Seconds: the reset's end (its `expires`), after which the transit envelope is gone. */
  expires: z.number(),
});
export type KeyResetMade = z.infer<typeof keyResetMade>;

/** Encrypted account data (the pins): the envelope's text and its revision, 0 before the first save. */
export const accountDataView = z.object({ data: z.string().nullable(), rev: z.number() });

export const accountDataSave = z.object({
  data: z.string().min(1).max(PINS_MAX_CHARS),
  /** The revision this change starts from (0 for the first save): another window's save in between is 409. */
  rev: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** Identities, pins and anchors: the routes, by "METHOD /path" (merged in index.ts). The literal paths before /{id}. */
export const identityRoutes = {
  /** The instance's anchors: the root identity of the setup administrator (none before they publish it). */
  "GET /api/identities/anchors": route({
    access: MEMBERS,
    response: z.object({
      roots: z.array(signedRecordObject),
      setup_user_id: z.number(),
      /** The root's rule that version 1 keys count only when certified (`SignedLegacyRule`), once published. */
      legacy_rule: signedRecordObject.nullable(),
    }),
  }),
  /** The setup administrator publishes the instance's legacy rule, signed by the root (once). */
  "POST /api/identities/legacy-rule": route({ access: MEMBERS, body: legacyRuleBody, response: z.object({ anchor: z.string() }) }),
  /**
   * The caller's own signed invitation while they have not taken it over (null otherwise, or for
   * an unsigned one), or the key reset an administrator made for them while they have not taken it
   * over (null otherwise).
   */
  "GET /api/identities/invitation": route({
    access: MEMBERS,
    response: z.object({ invitation: signedRecordObject.nullable(), reset: signedRecordObject.nullable() }),
  }),
  "GET /api/identities/pins": route({ access: MEMBERS, response: accountDataView }),
  /**
   * The accounts whose current key is a version 1 key without an identity and without a
   * certificate (docs/protocol.md §14.14), as the users list gives them, with that key's id. A
   * hint for Administration: the client checks each key it certifies.
   */
  "GET /api/identities/uncertified": route({
    access: ADMINS,
    response: z.object({ accounts: z.array(z.object({ user: publicUser, keypair_id: z.number() })) }),
  }),
  "PUT /api/identities/pins": route({ access: MEMBERS, body: accountDataSave, response: z.object({ rev: z.number() }) }),
  "GET /api/identities/{id}": route({ access: MEMBERS, params: z.object({ id: f.idParam }), response: identityBundle }),
  /** Publishes the caller's next identity record for their current key (the setup administrator's root, for one). */
  "POST /api/identities": route({ access: MEMBERS, body: identityPublish, response: identityPublished }),
  /** An administrator certifies another administrator's identity key (one certificate per user). */
  "POST /api/identities/{id}/admin": route({
    access: ADMINS,
    params: z.object({ id: f.idParam }),
    body: adminCertificateBody,
    response: z.object({ user_id: z.number(), key_id: z.string() }),
  }),
  /** An administrator resets another user's key (they lost it): a temporary key, its transit envelope, the signed reset. */
  "POST /api/identities/{id}/reset": route({
    access: ADMINS,
    params: z.object({ id: f.idParam }),
    body: keyResetBody,
    response: keyResetMade,
  }),
  /** An administrator certifies a version 1 account's current key (one certificate per key). */
  "POST /api/identities/{id}/legacy": route({
    access: ADMINS,
    params: z.object({ id: f.idParam }),
    body: adminCertificateBody,
    response: z.object({ user_id: z.number(), key_id: z.string() }),
  }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, the identity domain). */
export const identityErrorCodes = [
  "identity_malformed",
  "identity_signature_invalid",
  "identity_chain_invalid",
  "identity_untrusted",
  "identity_keys_mismatch",
  "identity_conflict",
  "identity_root_forbidden",
  "invitation_invalid",
  "invitation_required",
  "takeover_fresh_keys",
  "admin_certificate_exists",
  "legacy_certificate_exists",
  "legacy_has_identity",
  "legacy_rule_exists",
  "pins_invalid",
  "pins_conflict",
  "key_reset_invalid",
  "key_reset_expired",
  "key_reset_own",
  "key_reset_required",
  "legacy_key_uncertified",
  "legacy_certificate_mismatch",
] as const;
