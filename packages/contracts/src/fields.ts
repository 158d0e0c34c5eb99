import * as z from "zod";

/** Shared field rules of spec 000 section 5, used by the handlers and the web forms alike. */
export const PASSWORD_MIN = 8;
export const NAME_MAX = 80;

export const email = z.email().max(254);
export const phone = z.string().regex(/^\+[0-9 ]{6,30}$/, "A phone number is a plus sign followed by 6 to 30 digits or spaces.");
export const contact = z.union([email, phone]);
export const password = z.string().min(PASSWORD_MIN).max(1024);
export const name = z.string().trim().min(1).max(NAME_MAX);
export const sixDigits = z.string().regex(/^[0-9]{6}$/, "Enter the 6-digit code.");
/** An id as a number (in bodies, and what verbs take): a positive safe integer. */
export const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/**
 * An id in a path or query arrives as text, and has one spelling only: decimal digits without a
 * sign, leading zeros, spaces, exponents or hex ("0x1", "1e0", "1.0", "01" and " 1" are refused).
 */
export const idParam = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, "An id is a positive whole number in decimal digits.")
  .transform(Number)
  .pipe(id);

/** Lower-cases emails and removes spaces from phone numbers, so one contact has one key. */
export function normaliseContact(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith("+") ? "+" + trimmed.slice(1).replace(/\s+/g, "") : trimmed.toLowerCase();
}
