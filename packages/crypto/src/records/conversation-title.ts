import { decrypt } from "../aead";
import { utf8Decode, utf8Encode } from "../bytes";
import { type AeadEnvelope, parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { type ConversationPlace, type LegacyOption, checkPlace, conversationSuffix, encryptRecord, legacyAllowed, openBoundOrLegacy } from "./place";

/**
 * A conversation's title (docs/protocol.md, Conversations): its UTF-8, as it was typed (no
 * normalisation), `encrypt`ed under the conversation key with the associated data
 * `conversation-title:<conversationId>:<epoch>`, so a title cannot be moved to another
 * conversation that shares the key.
 */

/** Protocol v1's associated data, which named no conversation: only ever opened, never sealed. */
export const LEGACY_CONVERSATION_TITLE_AAD = "conversation-title";

export function conversationTitleAad(conversationId: number, epoch?: number): string {
  return `conversation-title:${conversationSuffix(conversationId, epoch)}`;
}

export interface OpenedConversationTitle {
  title: string;
  /** True when it opened only under the v1 associated data. */
  legacy: boolean;
}

/** Encrypts a title for a conversation; answers the envelope's text. */
export function sealConversationTitle(conversationKey: Key, title: string, place: ConversationPlace): Promise<string> {
  return sealConversationTitleWith(conversationKey, title, place, undefined);
}

/** sealConversationTitle with the nonce supplied: for known-answer tests only. */
export async function sealConversationTitleWith(conversationKey: Key, title: string, place: ConversationPlace, nonce: Uint8Array | undefined): Promise<string> {
  const { conversationId, epoch } = checkPlace(place, "the conversation");
  const aad = conversationTitleAad(conversationId, epoch);
  if (typeof title !== "string") throw new CryptoError("invalid_input", "a title is a string");
  return encryptRecord(conversationKey, utf8Encode(title), aad, nonce);
}

/**
 * Opens a conversation's title. Tries the bound associated data, then (unless
 * `allowLegacy: false`, and for epoch 0 only) the v1 `conversation-title`. Neither opens:
 * decrypt_failed; not UTF-8: invalid_payload.
 */
export async function openConversationTitle(conversationKey: Key, envelope: AeadEnvelope | string, place: ConversationPlace & LegacyOption): Promise<OpenedConversationTitle> {
  const env = parseEnvelope(envelope, "aead");
  const checked = checkPlace(place, "the conversation");
  const open = (aad: string) => () => decrypt(conversationKey, env, { aad });
  const bound = open(conversationTitleAad(checked.conversationId, checked.epoch));
  const { value, legacy } = await openBoundOrLegacy(bound, legacyAllowed(checked) ? open(LEGACY_CONVERSATION_TITLE_AAD) : null);
  try {
    return { title: utf8Decode(value), legacy };
  } catch (cause) {
    throw new CryptoError("invalid_payload", "a title is UTF-8 text", { cause });
  }
}
