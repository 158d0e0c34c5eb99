import { type PickupWrapEnvelope, serializeEnvelope } from "../envelope";
import { type PickupKeys, type PickupSecrets, unwrapPickupKey, wrapPickupKey, wrapPickupKeyWith } from "../pickup";
import type { Argon2idParams, Key } from "../primitives";
import { ARGON2ID_DEFAULTS } from "../secure-code-wrap";
import { type SealRandomness, sealConversationKeyWith } from "./conversation-key";
import { openConversationTitle, sealConversationTitleWith } from "./conversation-title";
import { checkId, checkPlace } from "./place";

/**
 * What a pickup's creation seals (docs/protocol.md, Pickups, step 1), for the reserved conversation
 * id: the conversation key sealed for the creator (as any conversation's, bound to the id), the
 * `pickup-wrap` of the same key for the guest (src/pickup.ts), and the title, if any (bound to the
 * id). The lookup is `pickupLookup`; the link `pickupLink`.
 */

export interface PickupToSeal {
  conversationId: number;
  conversationKey: Key;
  /** The creator's X25519 public key (a key or raw base64url). */
  creatorPublic: Key | string;
  secrets: PickupSecrets;
  /** Omitted or empty: the pickup has no title. */
  title?: string;
  /** Argon2id of the guest's key; production code leaves the defaults. */
  params?: Argon2idParams;
}

/** Envelope texts for POST /api/pickup, and the guest's auth key (tests only; the creator need not keep it). */
export interface SealedPickup {
  sealed: string;
  wrapped: string;
  verifier: string;
  auth: string;
  title?: string;
}

/** The randomness of every part, supplied: for known-answer tests only. */
export interface PickupRandomness {
  seal: SealRandomness;
  wrap: { salt: Uint8Array; nonce: Uint8Array };
  titleNonce: Uint8Array;
}

export function sealPickup(pickup: PickupToSeal): Promise<SealedPickup> {
  return sealPickupWith(pickup, undefined);
}

/** sealPickup with the randomness supplied: for known-answer tests only. */
export async function sealPickupWith(pickup: PickupToSeal, fixed: PickupRandomness | undefined): Promise<SealedPickup> {
  const { conversationId, conversationKey, creatorPublic, secrets, title, params = ARGON2ID_DEFAULTS } = checkPlace(pickup, "the pickup");
  const place = { conversationId: checkId(conversationId, "a conversation id") };
  const sealed = await sealConversationKeyWith(conversationKey, creatorPublic, place, fixed?.seal);
  const wrapped = fixed ? await wrapPickupKeyWith(conversationKey, secrets, params, fixed.wrap) : await wrapPickupKey(conversationKey, secrets, params);
  return {
    sealed,
    wrapped: serializeEnvelope(wrapped.envelope),
    verifier: wrapped.verifier,
    auth: wrapped.auth,
    ...(title ? { title: await sealConversationTitleWith(conversationKey, title, place, fixed?.titleNonce) } : {}),
  };
}

/**
 * The guest's side: the conversation key from the `pickup-wrap` (with the keys derived from code,
 * security code and link secret) and the title, if any. The wrap names no conversation, so the
 * guest cannot tell a key from before ids were bound: the title may open under the v1 associated
 * data (`legacy`). Either failing: decrypt_failed.
 */
export async function openPickup(
  keys: PickupKeys,
  pickup: { conversationId: number; wrapped: PickupWrapEnvelope | string; title?: string | null; extractable?: boolean },
): Promise<{ key: Key; title: string | null; legacy: boolean }> {
  const { conversationId, wrapped, title } = checkPlace(pickup, "the pickup");
  checkId(conversationId, "a conversation id");
  const key = await unwrapPickupKey(keys, wrapped, { extractable: pickup.extractable === true });
  if (!title) return { key, title: null, legacy: false };
  const opened = await openConversationTitle(key, title, { conversationId, allowLegacy: true });
  return { key, title: opened.title, legacy: opened.legacy };
}
