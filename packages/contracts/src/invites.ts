import * as z from "zod";
import { ADMINS } from "./access";
import * as keys from "./keypairs";
import { route, type RouteContract } from "./route";
import { normaliseRecoveryCode } from "./totp";
import { publicUser } from "./users";
import * as f from "./fields";
import { envelopeObject, tempPublicKey } from "./fields";
import { signedRecordObject } from "./identities";

/**
 * Invitations (spec 000 §2 Invite screen, §3, §4, §7; docs/protocol.md §13). The administrator's
 * browser makes the invitee's temporary account keys and wraps them under an invitation code
 * that never reaches the server; the server keeps the account, the temporary key with its
 * "transit" envelope, and the invite (validity, who invited, the message).
 */

/** Spec 000 §4, §9: an invitation is valid for 30 days. */
export const INVITE_VALID_DAYS = 30;
export const INVITE_MESSAGE_MAX = 2000;
export const INVITE_GROUPS_DISABLED =
  "Group assignment within invite is currently disabled - please use the group members page to assign after inviting for now.";

/**
 * Spec 000 §5: the invitation code is eight characters from these 32 (digits and letters without
 * I, L, O, U; Crockford's base 32), 40 bits.
 */
export const INVITATION_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const INVITATION_CODE_LENGTH = 8;

/**
 * What the invitee typed, as a code: upper-cased, without spaces or hyphens, and the look-alikes
 * the alphabet leaves out read as what they look like (O as 0, I and L as 1, U as V). The
 * alphabet is the recovery codes', so the rule is theirs (spec 000 §5).
 */
export function normalizeInvitationCode(input: string): string {
  return normaliseRecoveryCode(input);
}

export function isInvitationCode(code: string): boolean {
  return code.length === INVITATION_CODE_LENGTH && [...code].every((c) => INVITATION_CODE_ALPHABET.includes(c));
}

/** Whole days left, rounded down: a fresh invite shows 29 days, as the spec displays it. */
export function inviteDaysLeft(expiresAt: number, now = Date.now() / 1000): number {
  return Math.max(0, Math.floor((expiresAt - now) / 86400));
}

export const inviteStatus = z.enum(["pending", "expired", "accepted"]);
export type InviteStatus = z.infer<typeof inviteStatus>;

export const newInvite = z.object({
  email: f.email,
  phone: f.phone.optional(),
  // Spec 000 §2: switched off for now; any group in the list is refused with this text.
  groups: z.array(z.unknown()).max(0, INVITE_GROUPS_DISABLED).default([]),
  roles: z.object({ admin: z.boolean().optional(), superAdmin: z.boolean().optional() }).default({}),
  sendEmail: z.boolean().default(true),
  message: f.plainMultilineText(z.string().max(INVITE_MESSAGE_MAX)).optional(),
  /** The temporary key's public halves and their signature over `tempKeypairRecord(...)`. */
  public_key: tempPublicKey,
  /** The temporary keys wrapped under the invitation code (a secure-code-wrap envelope). */
  transit: envelopeObject,
  /**
   * Protocol v2: the invitation signed by the inviting administrator's identity key (a
   * `SignedInvitation` naming these temporary keys, this address and a reserved invite id). An
   * administrator without a certified identity invites without it (a legacy invitation).
   */
  invitation: signedRecordObject.optional(),
});
export type NewInvite = z.infer<typeof newInvite>;

/**
 * Resending an invitation. A pending one keeps its temporary keys (and its validity is renewed
 * unless it is signed: the signed expiry is the administrator's). An expired one has lost its
 * transit envelope (deleted at expiry, docs/protocol.md §13), so it is issued again with new
 * temporary keys, a new code and, where the first was signed, a new signed invitation.
 */
export const resendInvite = z
  .object({ public_key: tempPublicKey.optional(), transit: envelopeObject.optional(), invitation: signedRecordObject.optional() })
  .refine((b) => (b.public_key === undefined) === (b.transit === undefined), { message: "New temporary keys come with their transit envelope.", path: ["transit"] })
  .refine((b) => b.invitation === undefined || b.public_key !== undefined, { message: "A new signed invitation names new temporary keys.", path: ["public_key"] });

/**
 * A new code for a pending invitation whose invitee lost theirs (not taken over yet: pending, or
 * registered without having entered the code): new temporary keys with their transit envelope and,
 * where the invitation is signed, a new signed invitation on the same id. The old code opens
 * nothing any more (its temporary key and transit go in the same transaction).
 */
export const newInviteCode = z.object({ public_key: tempPublicKey, transit: envelopeObject, invitation: signedRecordObject.optional() });

export const inviteView = z.object({
  id: z.number(),
  user_id: z.number(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: inviteStatus,
  invited_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Seconds since the epoch. */
  created_at: z.number(),
  expires_at: z.number(),
  /** Whether the invitee still has to take their key over with the invitation code (a new code can be issued). */
  awaiting_key: z.boolean(),
});
export type InviteView = z.infer<typeof inviteView>;

/** Invitations, spec 000 §2, §3, §4, §7: the routes, by "METHOD /path" (merged in index.ts). */
export const inviteRoutes = {
  "POST /api/instance/invite": route({
    access: ADMINS,
    body: newInvite,
    response: z.object({
      account: publicUser,
      keypair: z.object({ id: z.number(), type: keys.keypairType }),
      /** The invite that holds the transit key's validity: its id and expiry (seconds). */
      transit: z.object({ id: z.number(), expires_at: z.number() }),
      /** Always null: registration sends its own verification code. */
      vericode: z.null(),
    }),
  }),
  "GET /api/instance/invites": route({ access: ADMINS, response: z.object({ invites: z.array(inviteView) }) }),
  /** An invite id for the invitation an administrator is about to sign (valid one hour, for them only). */
  "POST /api/instance/invites/reserve": route({ access: ADMINS, response: z.object({ id: z.number() }) }),
  "POST /api/instance/invites/{id}/resend": route({ access: ADMINS, params: z.object({ id: f.idParam }), body: resendInvite, response: inviteView }),
  "POST /api/instance/invites/{id}/code": route({ access: ADMINS, params: z.object({ id: f.idParam }), body: newInviteCode, response: inviteView }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const inviteErrorCodes = ["invite_expired", "invite_accepted", "invite_not_found", "invite_reservation_invalid", "invite_reissue", "invite_key_taken", "invite_changed"] as const;
