import { encrypt, encryptWith } from "../aead";
import { serializeEnvelope } from "../envelope";
import { CryptoError, isCryptoError } from "../errors";
import type { Key } from "../primitives";

/**
 * Where a record belongs: the ids its seal context or associated data names (docs/protocol.md,
 * "Contexts and associated data in use"). Ids are written in decimal, so each place has exactly
 * one string; a malformed id is refused rather than written into a context.
 */

/** Conversations have one key until key rotation arrives (protocol v2); its epoch is 0. */
export const CONVERSATION_EPOCH = 0;

/** A conversation and the epoch of its key. */
export interface ConversationPlace {
  conversationId: number;
  /** Defaults to CONVERSATION_EPOCH. */
  epoch?: number;
}

/**
 * Opening records made before the conversation id was bound (protocol v1 strings). Allowed by
 * default so existing conversations keep working; protocol v2 retires it with a migration.
 */
export interface LegacyOption {
  allowLegacy?: boolean;
}

/**
 * Whether an opened key may be exported again (issue 11, item 8). Off by default: an opened copy
 * is for reading and writing; only a caller about to seal the key for someone else asks for an
 * extractable one, and drops it after sealing.
 */
export interface ExtractableOption {
  extractable?: boolean;
}

/** Same rule as the API's local ids (packages/contracts): 1–64 of A–Z a–z 0–9 _ -, never a colon. */
const LOCALID = /^[A-Za-z0-9_-]{1,64}$/;

/** A safe integer of at least `min`, else invalid_input. */
export function checkId(value: unknown, what: string, min = 1): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new CryptoError("invalid_input", `${what} must be an integer of at least ${min}`);
  }
  return value;
}

export function checkLocalid(value: unknown): string {
  if (typeof value !== "string" || !LOCALID.test(value)) throw new CryptoError("invalid_input", "a local id is 1 to 64 of A-Z a-z 0-9 _ -");
  return value;
}

/** `<conversationId>:<epoch>`, the suffix every conversation-level context and aad ends with. */
export function conversationSuffix(conversationId: number, epoch: number = CONVERSATION_EPOCH): string {
  return `${checkId(conversationId, "a conversation id")}:${checkId(epoch, "an epoch", 0)}`;
}

/** Whether the v1 string may be tried for this place: allowed by the caller, and epoch 0 (all v1 knew). */
export function legacyAllowed(place: ConversationPlace & LegacyOption): boolean {
  return place.allowLegacy !== false && (place.epoch ?? CONVERSATION_EPOCH) === CONVERSATION_EPOCH;
}

/**
 * The legacy path: opens with the bound context or associated data, and only when that fails to
 * authenticate (decrypt_failed) and a v1 attempt is given, with the v1 string. When both fail the
 * caller sees the first failure; anything other than decrypt_failed is never retried.
 */
export async function openBoundOrLegacy<T>(bound: () => Promise<T>, legacy: (() => Promise<T>) | null): Promise<{ value: T; legacy: boolean }> {
  try {
    return { value: await bound(), legacy: false };
  } catch (error) {
    if (!legacy || !isCryptoError(error, "decrypt_failed")) throw error;
    try {
      return { value: await legacy(), legacy: true };
    } catch (legacyError) {
      if (isCryptoError(legacyError, "decrypt_failed")) throw error;
      throw legacyError;
    }
  }
}

/** The place as a caller passed it, checked (not an object: invalid_input). */
export function checkPlace<T extends object>(place: T | undefined, what: string): T {
  if (typeof place !== "object" || place === null) throw new CryptoError("invalid_input", `${what} is missing`);
  return place;
}

/** `encrypt` (or, for known-answer tests, `encryptWith` a given nonce) as the envelope's text. */
export async function encryptRecord(key: Key, plaintext: Uint8Array, aad: string, nonce: Uint8Array | undefined): Promise<string> {
  return serializeEnvelope(nonce ? await encryptWith(key, plaintext, { aad }, nonce) : await encrypt(key, plaintext, { aad }));
}
