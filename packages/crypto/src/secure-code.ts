import { isWellFormed } from "./bytes";
import { CryptoError } from "./errors";
import { randomBytes } from "./primitives";

/**
 * The secure-code rules of spec 000 section 5. Codes are compared and hashed in Unicode NFC,
 * so the same text typed on a keyboard that produces decomposed characters (macOS, some
 * Android keyboards) unlocks the same key.
 */

export function normalizeSecureCode(code: string): string {
  if (typeof code !== "string" || code.length === 0) throw new CryptoError("invalid_input", "the secure code is empty");
  if (!isWellFormed(code)) throw new CryptoError("invalid_input", "the secure code contains a lone surrogate");
  return code.normalize("NFC");
}

/**
 * At least 8 characters (code points after NFC), at least one letter and one digit. Letters
 * and digits in any script count, so "Grüezi 🔐 ß7" passes.
 */
export function isValidSecureCode(code: string): boolean {
  if (typeof code !== "string" || !isWellFormed(code)) return false;
  const nfc = code.normalize("NFC");
  return [...nfc].length >= 8 && /\p{L}/u.test(nfc) && /\p{Nd}/u.test(nfc);
}

/** A pickup security code: exactly six ASCII digits. */
export function isValidPickupSecurityCode(code: string): boolean {
  return typeof code === "string" && /^[0-9]{6}$/.test(code);
}

/** A uniformly random six-digit pickup security code (leading zeros kept). */
export function generatePickupSecurityCode(): string {
  // Rejection sampling: 2^32 is not a multiple of 10^6, and plain modulo would favour low codes.
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;
  for (;;) {
    const bytes = randomBytes(4);
    const n = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
    if (n < limit) return String(n % 1_000_000).padStart(6, "0");
  }
}
