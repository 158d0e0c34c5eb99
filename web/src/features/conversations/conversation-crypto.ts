import {
  type Key,
  LEGACY_CONVERSATION_KEY_CONTEXT,
  LEGACY_CONVERSATION_TITLE_AAD,
  generateSymmetricKey,
  openConversationKey as openSealedConversationKey,
  openConversationTitle,
  openPickup,
  sealConversationKey,
  sealConversationTitle,
} from "@sealwork/crypto";
import type { GuestKeys } from "../../lib/guest";
import { trustedKey } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/**
 * The conversation key and title (docs/protocol.md, Conversations), over the record functions of
 * `@sealwork/crypto`: one random AES key per conversation, sealed for every participant under a
 * context that names the conversation id (reserved before anything is sealed); the title is an
 * `aead` envelope under it, bound to the id as well.
 *
 * Each key this module makes or opens remembers its conversation, so the functions below keep
 * their older signatures: the conversation id may be passed, and must then agree.
 */

/** @deprecated Protocol v1's context, only ever opened (by the crypto package's legacy path). */
export const CONVERSATION_KEY_CONTEXT = LEGACY_CONVERSATION_KEY_CONTEXT;
/** @deprecated Protocol v1's associated data, only ever opened (by the crypto package's legacy path). */
export const TITLE_AAD = LEGACY_CONVERSATION_TITLE_AAD;

// Which conversation and epoch each key belongs to (keys are never stored; neither is this).
const conversations = new WeakMap<Key, { conversationId: number; epoch: number }>();
// Where an opened (non-extractable) key came from, so it can be opened once more, extractable,
// when it must be sealed for someone else (issue 11, item 8).
const copies = new WeakMap<Key, { sealed: string; holder: UnlockedKeys }>();

function bind(key: Key, conversationId: number, epoch = 0): Key {
  conversations.set(key, { conversationId, epoch });
  return key;
}

/** Remembers the conversation and epoch of a key opened elsewhere (a v2 conversation's verified keys). */
export function bindConversationKey(key: Key, conversationId: number, epoch: number): Key {
  return bind(key, conversationId, epoch);
}

/** The conversation a key belongs to: the one given, which must agree with the one it was made or opened for. */
function conversationOf(key: Key, conversationId: number | undefined): number {
  const known = conversations.get(key)?.conversationId;
  if (conversationId === undefined) {
    if (known === undefined) throw new Error("this key belongs to no known conversation: pass the conversation id");
    return known;
  }
  if (known !== undefined && known !== conversationId) throw new Error(`this key belongs to conversation ${known}, not ${conversationId}`);
  return conversationId;
}

/** The epoch a key was made or opened for (0 unless a v2 conversation's later key). */
export function epochOf(key: Key): number {
  return conversations.get(key)?.epoch ?? 0;
}

/** A fresh conversation key; pass the reserved id (POST /api/conversations/reserve) so what is sealed under it is bound to it. */
export async function newConversationKey(conversationId?: number): Promise<Key> {
  const key = await generateSymmetricKey();
  return conversationId === undefined ? key : bind(key, conversationId);
}

/** Opened conversation keys by conversation and epoch, for this page's life only (never stored). */
const opened = new Map<string, Promise<Key>>();

// A logout or another user's keys must not find the previous account's conversation keys.
let openedFor: number | null = null;

/** Who opens conversation keys: a member with unlocked account keys, or a pickup's guest. */
export type KeyHolder = UnlockedKeys | GuestKeys;

/**
 * Opens the caller's copy of the conversation key once per conversation and session: a member's
 * is sealed for their account key (bound to this conversation, or from before ids were bound);
 * a guest's is the pickup's `pickup-wrap` (docs/protocol.md, Pickups), opened with the keys
 * derived from code, security code and link secret. A copy that does not open rejects. The key
 * is not extractable: a script in the page can use it while it runs, never copy it out; sealing
 * it for a new participant opens the copy once more (`extractableCopy`).
 */
export function openConversationKey(conversationId: number, sealed: string, unlocked: KeyHolder, epoch = 0): Promise<Key> {
  if (openedFor !== unlocked.uid) {
    opened.clear();
    openedFor = unlocked.uid;
  }
  const slot = `${conversationId}:${epoch}`;
  let key = opened.get(slot);
  if (!key) {
    key =
      "pickup" in unlocked
        ? openPickup(unlocked.pickup, { conversationId, wrapped: sealed }).then((p) => bind(p.key, conversationId))
        : openSealedConversationKey(sealed, unlocked.keys.encrypt, { conversationId, epoch }).then((o) => {
            copies.set(o.key, { sealed, holder: unlocked });
            return bind(o.key, conversationId, epoch);
          });
    // A failure is not cached: another load may bring a good copy.
    key.catch(() => opened.delete(slot));
    opened.set(slot, key);
  }
  return key;
}

/**
 * A protocol v1 conversation's key, extractable, opened from the member's copy: what its
 * migration to a membership log seals for everyone (signed-changes.ts).
 */
export async function extractableConversationKey(conversationId: number, sealed: string, unlocked: UnlockedKeys): Promise<Key> {
  return bind((await openSealedConversationKey(sealed, unlocked.keys.encrypt, { conversationId, extractable: true })).key, conversationId);
}

/**
 * The one place a conversation key is extractable after its creation: a fresh key (sealed for its
 * participants at creation) is; an opened one is opened again from the member's sealed copy,
 * extractable, for this one seal, and dropped.
 */
async function extractableCopy(key: Key, conversationId: number): Promise<Key> {
  if (key.extractable) return key;
  const copy = copies.get(key);
  if (!copy) throw new Error("this conversation key cannot be sealed for anyone: it was not opened from a sealed copy");
  return (await openSealedConversationKey(copy.sealed, copy.holder.keys.encrypt, { conversationId, extractable: true })).key;
}

/** The conversation key sealed for one X25519 public key (raw base64url). */
export async function sealKeyForPublic(key: Key, encryptPublic: string, conversationId?: number): Promise<string> {
  const id = conversationOf(key, conversationId);
  const copy = await extractableCopy(key, id);
  return sealConversationKey(copy, encryptPublic, { conversationId: id });
}

/**
 * Seals for the user's key as this client trusts it: their identity chain verified to the pinned
 * anchors and their pin (docs/protocol.md §14; TrustError when it changed without a valid chain or
 * is older than pinned, or they have none).
 */
export async function sealKeyForUser(key: Key, uid: number, conversationId?: number): Promise<string> {
  const id = conversationOf(key, conversationId);
  const found = await trustedKey(uid);
  return sealKeyForPublic(key, found.encryptPublic, id);
}

export async function encryptTitle(key: Key, title: string, conversationId?: number): Promise<string> {
  const id = conversationOf(key, conversationId);
  return sealConversationTitle(key, title, { conversationId: id, epoch: epochOf(key) });
}

/**
 * The title, or a rejection when it does not open. A v1 title (from before ids were bound) still
 * opens, whichever copy of the key read it: a person added since holds a bound copy of an old key.
 */
export async function decryptTitle(key: Key, envelope: string, conversationId?: number): Promise<string> {
  return (await openConversationTitle(key, envelope, { conversationId: conversationOf(key, conversationId), epoch: epochOf(key) })).title;
}
