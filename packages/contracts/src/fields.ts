import * as z from "zod";

/** Shared field rules of spec 000 section 5, used by the handlers and the web forms alike. */
export const PASSWORD_MIN = 8;
export const NAME_MAX = 80;

/**
 * What no name, address or other text the server keeps in the clear or puts into a mail may hold:
 * control characters (C0, DEL, C1: NUL, BEL, CR, LF, ESC, …), the line and paragraph separators,
 * lone surrogates (half an emoji, not text in any encoding) and the bidi embeddings, overrides and
 * isolates that make text read differently from how it is stored (U+202A–U+202E, U+2066–U+2069).
 * Multi-line texts (an invitation's message) may hold line breaks and tabs.
 */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]|\p{Cs}/u;
export const UNSAFE_TEXT_MESSAGE = "Use printable characters only: no line breaks, control characters, direction overrides or broken characters.";
export const UNSAFE_MULTILINE_MESSAGE = "Use printable characters and line breaks only: no control characters, direction overrides or broken characters.";

/** Whether `value` is safe as one line of plain text (see UNSAFE). */
export function isPlainText(value: string): boolean {
  return !UNSAFE.test(value);
}

/** Whether `value` is safe as plain text of several lines: line breaks and tabs allowed. */
export function isPlainMultilineText(value: string): boolean {
  return !UNSAFE.test(value.replace(/\r\n|[\n\t]/g, " "));
}

/** The one rule for every free text the server stores in the clear or mails: one line of plain text. */
export function plainText<S extends z.ZodType<string>>(schema: S): S {
  return schema.refine(isPlainText, UNSAFE_TEXT_MESSAGE);
}

/** The same for texts of several lines (line breaks and tabs allowed). */
export function plainMultilineText<S extends z.ZodType<string>>(schema: S): S {
  return schema.refine(isPlainMultilineText, UNSAFE_MULTILINE_MESSAGE);
}

export const email = plainText(z.email().max(254));
export const phone = plainText(z.string().regex(/^\+[0-9 ]{6,30}$/, "A phone number is a plus sign followed by 6 to 30 digits or spaces."));
export const contact = z.union([email, phone]);
export const password = z.string().min(PASSWORD_MIN).max(1024);
export const name = plainText(z.string().trim().min(1).max(NAME_MAX));
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

/** A count or index in a path (an epoch: 0 and up), with one spelling only, as `idParam`. */
export const indexParam = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,15})$/, "An index is a whole number of 0 or more in decimal digits.")
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

/** Lower-cases emails and removes spaces from phone numbers, so one contact has one key. */
export function normaliseContact(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith("+") ? "+" + trimmed.slice(1).replace(/\s+/g, "") : trimmed.toLowerCase();
}

/**
 * Base64url (unpadded) of exactly 32 bytes: 43 characters whose last one carries only 4 bits, so
 * the unused low bits are zero and every value has one spelling (docs/protocol.md §1).
 */
const BASE64URL_32 = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** A raw X25519 or Ed25519 public key. */
export const rawPublicKey = z.string().regex(BASE64URL_32, "Not a raw 32-byte public key (base64url).");
/** `backupNameDigest(name)`: SHA-256 of SHA-384 of the name, base64url. Never the name itself. */
export const backupFilename = z.string().regex(BASE64URL_32, "The filename must be a backup name digest (base64url of 32 bytes).");
/** A versioned envelope as a JSON object; its kind, fields and lengths are checked by the domain. */
export const envelopeObject = z.record(z.string().max(64), z.unknown());

/** An invitation's or a key reset's temporary key: its public halves and their signature over `tempKeypairRecord(...)`. */
export const tempPublicKey = z.object({
  encrypt_public: rawPublicKey,
  sign_public: rawPublicKey,
  signature: envelopeObject,
  timestamp: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
