import * as z from "zod";
import { tryBase64urlDecode } from "../bytes";
import { type CryptoErrorCode, CryptoError } from "../errors";

/**
 * The fields protocol v2's signed records share, and the one parser that checks a record's exact
 * shape (docs/protocol.md, "Version 2"). A record from the server that does not fit is
 * malformed_record; the same check on what a caller asks to sign is invalid_input.
 */

const bytesOf = (length: number) => (text: string) => tryBase64urlDecode(text)?.length === length;

/** A user (or invite) id: a positive safe integer, as the API's ids. */
export const idField = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** seq and epoch: 0, 1, 2, … */
export const countField = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A time in milliseconds since the epoch. */
export const timeField = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A key id: base64url of 16 bytes (22 characters, canonical). */
export const keyIdField = z.string().length(22).refine(bytesOf(16), "not a key id");
/** A raw X25519 or Ed25519 public key: base64url of 32 bytes. */
export const publicKeyField = z.string().length(43).refine(bytesOf(32), "not a raw public key");
/** A SHA-256 digest or HMAC: base64url of 32 bytes. */
export const digestField = z.string().length(43).refine(bytesOf(32), "not a 32-byte digest");
/** A `record-signature` envelope's canonical text (parsed strictly when it is verified). */
export const signatureField = z.string().min(1).max(256);
/** A user and one of their identity keys, as records name participants, subjects and signers. */
export const keyRefField = z.strictObject({ userId: idField, keyId: keyIdField });

export type KeyRef = z.infer<typeof keyRefField>;

/** A membership log's head: the seq of its last entry and that entry's hash (entryHash). */
export const logHeadField = z.strictObject({ seq: countField, hash: digestField });

/**
 * The address an invitation binds, as the API normalises contacts (packages/contracts
 * normaliseContact): an e-mail address trimmed and lower-cased, or a phone number (an invitation
 * by phone) as "+" and its digits. A record holds it only in that form.
 */
export function normalizeEmail(address: string): string {
  if (typeof address !== "string") throw new CryptoError("invalid_input", "an address is a string");
  const trimmed = address.trim();
  return trimmed.startsWith("+") ? `+${trimmed.slice(1).replace(/\s+/g, "")}` : trimmed.toLowerCase();
}

export const emailField = z
  .string()
  .min(3)
  .max(254)
  .refine((text) => normalizeEmail(text) === text && (/^\+[0-9]{6,30}$/.test(text) || /^[^\s@]+@[^\s@]+$/.test(text)), "not a normalised address");

/** Parses `value` with `schema`, refusing with `code` (malformed_record for what the server gave). */
export function parseRecord<T>(schema: z.ZodType<T>, value: unknown, what: string, code: CryptoErrorCode = "malformed_record"): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new CryptoError(code, `not a valid ${what}${where}`);
  }
  return parsed.data;
}
