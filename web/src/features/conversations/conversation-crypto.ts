import {
  type Key,
  decrypt,
  encrypt,
  exportSymmetricKey,
  generateSymmetricKey,
  importEncryptionPublicKey,
  importSymmetricKey,
  openSealed,
  sealFor,
  serializeEnvelope,
  unwrapPickupKey,
  utf8Decode,
  utf8Encode,
} from "@sealwork/crypto";
import type { GuestKeys } from "../../lib/guest";
import { lookupUserKey } from "../../lib/keypairs";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/**
 * The conversation key and title (docs/protocol.md, Conversations). One random AES key per
 * conversation, sealed for every participant under the context of epoch 0 (the id does not exist
 * yet when the author seals it); the title is an `aead` envelope under it.
 */
export const CONVERSATION_KEY_CONTEXT = "conversation-key:0";
export const TITLE_AAD = "conversation-title";

export { generateSymmetricKey as newConversationKey };

/** Opened conversation keys, for this page's life only (never stored). */
const opened = new Map<number, Promise<Key>>();

// A logout or another user's keys must not find the previous account's conversation keys.
let openedFor: number | null = null;

/** Who opens conversation keys: a member with unlocked account keys, or a pickup's guest. */
export type KeyHolder = UnlockedKeys | GuestKeys;

/**
 * Opens the caller's copy of the conversation key once per conversation and session: a member's
 * is sealed for their account key; a guest's is the pickup's `pickup-wrap` (docs/protocol.md,
 * Pickups), opened with the keys derived from code, security code and link secret.
 */
export function openConversationKey(conversationId: number, sealed: string, unlocked: KeyHolder): Promise<Key> {
  if (openedFor !== unlocked.uid) {
    opened.clear();
    openedFor = unlocked.uid;
  }
  let key = opened.get(conversationId);
  if (!key) {
    key =
      "pickup" in unlocked
        ? unwrapPickupKey(unlocked.pickup, sealed)
        : openSealed(sealed, unlocked.keys.encrypt, { context: CONVERSATION_KEY_CONTEXT }).then(importSymmetricKey);
    // A failure is not cached: another load may bring a good copy.
    key.catch(() => opened.delete(conversationId));
    opened.set(conversationId, key);
  }
  return key;
}

/** The conversation key sealed for one X25519 public key (raw base64url). */
export async function sealKeyForPublic(key: Key, encryptPublic: string): Promise<string> {
  const publicKey = await importEncryptionPublicKey(encryptPublic);
  return serializeEnvelope(await sealFor(publicKey, await exportSymmetricKey(key), { context: CONVERSATION_KEY_CONTEXT }));
}

/** Looks up the user's verified key (spec 000 §5; KeyLookupError on failure) and seals for it. */
export async function sealKeyForUser(key: Key, uid: number): Promise<string> {
  const found = await lookupUserKey(uid);
  return sealKeyForPublic(key, found.encryptPublic);
}

export async function encryptTitle(key: Key, title: string): Promise<string> {
  return serializeEnvelope(await encrypt(key, utf8Encode(title), { aad: TITLE_AAD }));
}

export async function decryptTitle(key: Key, envelope: string): Promise<string> {
  return utf8Decode(await decrypt(key, envelope, { aad: TITLE_AAD }));
}
