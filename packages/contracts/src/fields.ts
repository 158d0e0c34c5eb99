import { z } from "zod";

/** Shared field rules of spec 000 section 5, used by the handlers and the web forms alike. */
export const PASSWORD_MIN = 8;
export const NAME_MAX = 80;

export const email = z.email().max(254);
export const phone = z.string().regex(/^\+[0-9 ]{6,30}$/, "A phone number is a plus sign followed by 6 to 30 digits or spaces.");
export const contact = z.union([email, phone]);
export const password = z.string().min(PASSWORD_MIN).max(1024);
export const name = z.string().trim().min(1).max(NAME_MAX);
export const sixDigits = z.string().regex(/^[0-9]{6}$/, "Enter the 6-digit code.");
/** Numeric ids in paths arrive as strings. */
export const idParam = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** Lower-cases emails and removes spaces from phone numbers, so one contact has one key. */
export function normaliseContact(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith("+") ? "+" + trimmed.slice(1).replace(/\s+/g, "") : trimmed.toLowerCase();
}
