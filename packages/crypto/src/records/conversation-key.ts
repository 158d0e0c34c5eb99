import { exportSymmetricKey, importSymmetricKey } from "../aead";
import { importEncryptionPublicKey } from "../account-keys";
import { wipe } from "../bytes";
import { type SealedEnvelope, parseEnvelope, serializeEnvelope } from "../envelope";
import type { Key, KeyPair } from "../primitives";
import { openSealed, sealFor, sealForWith } from "../seal";
import { type ConversationPlace, type ExtractableOption, type LegacyOption, checkId, checkPlace, conversationSuffix, legacyAllowed, openBoundOrLegacy } from "./place";

/**
 * A conversation key sealed for one participant (docs/protocol.md, Conversations): the raw
 * 32-byte AES key, `sealFor` their X25519 key under the context
 * `conversation-key:<conversationId>:<epoch>`, so a copy sealed for conversation Y does not open
 * as X's key. The client reserves the conversation id before it seals (POST
 * /api/conversations/reserve).
 */

/** Protocol v1's context, which named no conversation: only ever opened, never sealed. */
export const LEGACY_CONVERSATION_KEY_CONTEXT = "conversation-key:0";

export function conversationKeyContext(conversationId: number, epoch?: number): string {
  return `conversation-key:${conversationSuffix(conversationId, epoch)}`;
}

/** The associated data of the link by which epoch `epoch` (≥ 1) carries the key before it (`epoch-chain.ts`). */
export function epochChainAad(conversationId: number, epoch: number): string {
  return `epoch-chain:${conversationSuffix(conversationId, checkId(epoch, "an epoch with a previous one", 1))}`;
}

export interface OpenedConversationKey {
  /** AES-256-GCM, extractable so it can be sealed for a new participant. */
  key: Key;
  /** True when it opened only under the v1 context (a conversation from before ids were bound). */
  legacy: boolean;
}

/** The randomness of a seal, supplied: for known-answer tests only. */
export interface SealRandomness {
  ephemeral: KeyPair;
  nonce: Uint8Array;
}

/** Seals the conversation key for a participant's X25519 key (a key or raw base64url); answers the envelope's text. */
export function sealConversationKey(conversationKey: Key, recipient: Key | string, place: ConversationPlace): Promise<string> {
  return sealConversationKeyWith(conversationKey, recipient, place, undefined);
}

/** sealConversationKey with the randomness supplied: for known-answer tests only. */
export async function sealConversationKeyWith(conversationKey: Key, recipient: Key | string, place: ConversationPlace, fixed: SealRandomness | undefined): Promise<string> {
  const { conversationId, epoch } = checkPlace(place, "the conversation");
  const options = { context: conversationKeyContext(conversationId, epoch) };
  const publicKey = typeof recipient === "string" ? await importEncryptionPublicKey(recipient) : recipient;
  const raw = await exportSymmetricKey(conversationKey);
  try {
    return serializeEnvelope(fixed ? await sealForWith(publicKey, raw, options, fixed) : await sealFor(publicKey, raw, options));
  } finally {
    wipe(raw);
  }
}

/**
 * Opens one's copy of the conversation key with one's X25519 key pair. Tries the bound context,
 * then (unless `allowLegacy: false`, and for epoch 0 only) the v1 context `conversation-key:0`.
 * Neither opens: decrypt_failed. The key is not extractable unless `extractable: true` (to seal
 * it for a new participant).
 */
export async function openConversationKey(
  sealed: SealedEnvelope | string,
  recipient: KeyPair,
  place: ConversationPlace & LegacyOption & ExtractableOption,
): Promise<OpenedConversationKey> {
  const env = parseEnvelope(sealed, "sealed");
  const checked = checkPlace(place, "the conversation");
  const open = (context: string) => async () => {
    const raw = await openSealed(env, recipient, { context });
    try {
      return await importSymmetricKey(raw, { extractable: place.extractable === true });
    } finally {
      wipe(raw);
    }
  };
  const bound = open(conversationKeyContext(checked.conversationId, checked.epoch));
  const { value, legacy } = await openBoundOrLegacy(bound, legacyAllowed(checked) ? open(LEGACY_CONVERSATION_KEY_CONTEXT) : null);
  return { key: value, legacy };
}
