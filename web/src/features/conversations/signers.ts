import { CryptoError, type IdentityKeys, type KeysOf, type VerifiedKey, identityKeys } from "@sealwork/crypto";
import { type Contact, contactKey, ownKeys } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/**
 * Who signed what, resolved the way lib/trust.ts trusts keys (docs/protocol.md §14.9): a record's
 * signer (user, key id) is accepted only when that key is one of the user's verified chain (or
 * their v1 key pinned on first use) and agrees with this client's pin; one's own keys are the
 * unlocked ones. Each person is looked up once per lookup.
 */
export function signerLookup(holder: UnlockedKeys): KeysOf {
  const people = new Map<number, Promise<VerifiedKey[]>>();
  return async (userId, keyId) => {
    let keys = people.get(userId);
    if (!keys) {
      keys = userId === holder.uid ? ownKeys(holder) : contactKey(holder, userId).then((contact) => contact.keys);
      people.set(userId, keys);
    }
    const found = (await keys).find((key) => key.keyId === keyId);
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
