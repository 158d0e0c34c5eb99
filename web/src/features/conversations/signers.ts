import { CryptoError, type IdentityKeys, type KeysOf, type VerifiedKey, identityKeys } from "@sealwork/crypto";
import { type Contact, contactKey, ownKeys } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/** How long a person's verified keys are kept for the next lookup (as the conversation panel keeps a contact). */
const KEYS_FRESH_MS = 60_000;

const known = new Map<number, { at: number; keys: Promise<VerifiedKey[]> }>();
let knownFor: UnlockedKeys | null = null;

/** A person's verified keys (lib/trust.ts), kept for KEYS_FRESH_MS; a refusal or failure is not kept. */
export function keysOfPerson(holder: UnlockedKeys, userId: number): Promise<VerifiedKey[]> {
  if (knownFor !== holder) {
    known.clear();
    knownFor = holder;
  }
  const entry = known.get(userId);
  if (entry && Date.now() - entry.at < KEYS_FRESH_MS) return entry.keys;
  const keys = userId === holder.uid ? ownKeys(holder) : contactKey(holder, userId).then((contact) => contact.keys);
  known.set(userId, { at: Date.now(), keys });
  keys.catch(() => known.delete(userId));
  return keys;
}

/**
 * Who signed what, resolved the way lib/trust.ts trusts keys (docs/protocol.md §14.9): a record's
 * signer (user, key id) is accepted only when that key is one of the user's verified chain (or
 * their v1 key pinned on first use) and agrees with this client's pin; one's own keys are the
 * unlocked ones.
 */
export function signerLookup(holder: UnlockedKeys): KeysOf {
  return async (userId, keyId) => {
    const found = (await keysOfPerson(holder, userId)).find((key) => key.keyId === keyId);
    if (!found) throw new CryptoError("untrusted_key", `key ${keyId} of user ${userId} is not one this client trusts`);
    return found;
  };
}

/** The signed-in user's identity keys (to sign and open), with the key id of the keys they hold. */
export function myIdentity(holder: UnlockedKeys): Promise<IdentityKeys> {
  return identityKeys(holder.uid, holder.keys);
}

/** A contact's current key as v2 records name and seal for it. */
export function keyOf(contact: Contact): VerifiedKey {
  return contact.keys.find((key) => key.keyId === contact.keyId) ?? { userId: contact.userId, keyId: contact.keyId, seq: contact.seq, encryptPublic: contact.encryptPublic, signPublic: contact.signPublic, created: 0 };
}

/** One's own current key as a VerifiedKey (to seal one's own copy). */
export async function myKey(holder: UnlockedKeys): Promise<VerifiedKey> {
  const keys = await ownKeys(holder);
  return keys.at(-1)!;
}
