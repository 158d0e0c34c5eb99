import { z } from "zod";

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
