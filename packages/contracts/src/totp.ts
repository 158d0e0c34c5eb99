import * as z from "zod";
import { ADMINS, MEMBERS } from "./access";
import * as f from "./fields";
import { route, type RouteContract } from "./route";

/**
 * Two-factor login (TOTP) shapes shared by the server and the web client (spec 000 §5, §7).
 * Recovery codes use the invitation-code alphabet: digits and letters without I, L, O, U, so
 * that a look-alike typed by mistake can be mapped back (Crockford's base 32).
 */
export const RECOVERY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const RECOVERY_CODE_LENGTH = 10;
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/**
 * A typed recovery code as it is stored: upper-cased, without spaces or hyphens, with the
 * look-alikes normalised (L and I become 1, O becomes 0, U becomes V).
 */
export function normaliseRecoveryCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/[LI]/g, "1")
    .replace(/O/g, "0")
    .replace(/U/g, "V");
}

/** True when the input reads as a recovery code (10 characters of the alphabet once normalised). */
export function isRecoveryCode(input: string): boolean {
  const code = normaliseRecoveryCode(input);
  return code.length === RECOVERY_CODE_LENGTH && [...code].every((c) => RECOVERY_ALPHABET.includes(c));
}

/** ABCDE12345 → ABCDE-12345, for display; the hyphen is ignored when the code is typed back. */
export function formatRecoveryCode(code: string): string {
  return code.length > 5 ? `${code.slice(0, 5)}-${code.slice(5)}` : code;
}

/** The secret as shown to the user and sent back to finalize: base32, 160 bits by default. */
export const totpSecret = z.string().regex(/^[A-Z2-7]{16,128}$/, "Not a TOTP secret.");
/** A 6-digit code or a recovery code (spaces and hyphens allowed); the server tells them apart. */
export const totpAuth = z.string().trim().min(1).max(32);

/** {} starts a setup (a new pending secret); { totp_secret, totp_verify } finalizes it. */
export const totpSetupBody = z
  .object({ totp_secret: totpSecret.optional(), totp_verify: f.sixDigits.optional() })
  .refine((b) => (b.totp_secret === undefined) === (b.totp_verify === undefined), {
    message: "Send totp_secret and totp_verify together to finalize, or neither to start.",
  });
export const totpDestroyBody = z.object({ totp_auth: totpAuth });
export const totpDestroyAdminBody = z.object({ uid: f.id });

/** Two-factor login (TOTP), spec 000 §4, §7: the routes, by "METHOD /path" (merged in index.ts). */
export const totpRoutes = {
  "POST /api/verification/totpSetup": route({
    access: MEMBERS,
    // {} starts a setup (a new pending secret); { totp_secret, totp_verify } finalizes it.
    body: totpSetupBody,
    response: z.union([z.object({ qr: z.string(), secret: z.string() }), z.object({ recovery: z.array(z.string()) })]),
  }),
  "POST /api/verification/totpDestroy": route({
    access: MEMBERS,
    body: totpDestroyBody,
    response: z.object({ totp_enabled: z.boolean() }),
  }),
  "POST /api/verification/totpDestroyAdmin": route({
    access: ADMINS,
    body: totpDestroyAdminBody,
    response: z.object({ totp_enabled: z.boolean() }),
  }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const totpErrorCodes = ["totp_incorrect", "totp_already_enabled", "totp_not_enabled", "totp_setup_expired"] as const;
