import { type AccountKeys, accountPublicKeys, importSigningPublicKey } from "../account-keys";
import { keyIdOf } from "../digests";
import { CryptoError, isCryptoError } from "../errors";
import type { Key } from "../primitives";

/**
 * What protocol v2's records need to know about identity keys: a verified key (plain JSON, so a
 * client can keep it), one's own identity keys for signing and opening, and the lookup by which
 * a record's signer is resolved to a verified key (docs/protocol.md, "Version 2").
 */

/** One identity key of a user, as `verifyIdentity` established it. Plain JSON. */
export interface VerifiedKey {
  userId: number;
  keyId: string;
  /** Its place in the user's chain: 0 for the birth record. */
  seq: number;
  encryptPublic: string;
  signPublic: string;
  /** ms, as the record says (signed by the user). */
  created: number;
  /** An administrator's key reset certified this key, not the key before it (absent otherwise). */
  reset?: true;
  /** Birth records only: the key id of the certified version 1 key that certified this key (absent otherwise). */
  legacy?: string;
}

/** A user's identity as `verifyIdentity` answers it: the current key, and every key of the chain. */
export interface VerifiedIdentity extends VerifiedKey {
  email: string;
  /** Every key of the chain, birth (seq 0) first; the last is the current one (this). */
  keys: VerifiedKey[];
  /** The pinned root key id the chain rests on. */
  anchor: string;
  /** Whether the current key holds administrator rights (a root, or an admin certificate). */
  admin: boolean;
}

/** One's own identity: the user id, the key id, and the unlocked account keys (to sign and to open). */
export interface IdentityKeys {
  userId: number;
  keyId: string;
  keys: AccountKeys;
}

/**
 * Resolves a user's key by id to a verified key, or rejects (untrusted_key when unknown). The
 * caller builds it from identities it verified (`keyLookup`), so a record's signer is always a
 * key that chains to the instance's anchors.
 */
export type KeysOf = (userId: number, keyId: string) => Promise<VerifiedKey>;

/** One's identity keys with their key id computed. */
export async function identityKeys(userId: number, keys: AccountKeys): Promise<IdentityKeys> {
  if (typeof userId !== "number" || !Number.isSafeInteger(userId) || userId < 1) throw new CryptoError("invalid_input", "a user id is a positive integer");
  return { userId, keyId: await keyIdOf(await accountPublicKeys(keys)), keys };
}

/** A `KeysOf` over verified identities: any key of their chains, by user and key id. */
export function keyLookup(identities: readonly VerifiedIdentity[]): KeysOf {
  const byId = new Map<string, VerifiedKey>();
  for (const identity of identities) for (const key of identity.keys) byId.set(`${key.userId}:${key.keyId}`, key);
  return async (userId, keyId) => {
    const key = byId.get(`${userId}:${keyId}`);
    if (!key) throw new CryptoError("untrusted_key", `no verified key ${keyId} of user ${userId}`);
    return key;
  };
}

/**
 * The signing key a record names, through the caller's lookup: it must answer a key of that user
 * with that id (a lookup that answers anything else is refused, untrusted_key), imported once.
 */
export async function resolveSigner(keysOf: KeysOf, userId: number, keyId: string): Promise<{ key: VerifiedKey; verify: Key }> {
  let key: VerifiedKey;
  try {
    key = await keysOf(userId, keyId);
  } catch (cause) {
    if (isCryptoError(cause)) throw cause;
    throw new CryptoError("untrusted_key", `no verified key ${keyId} of user ${userId}`, { cause });
  }
  if (key?.userId !== userId || key.keyId !== keyId) throw new CryptoError("untrusted_key", `the lookup answered another key than ${keyId} of user ${userId}`);
  return { key, verify: await signingKey(key.signPublic) };
}

// Imported public keys by their raw text: verifying 2,000 messages of a handful of senders imports a handful.
const imported = new Map<string, Promise<Key>>();
const IMPORT_CACHE = 1024;

export function signingKey(signPublic: string): Promise<Key> {
  let key = imported.get(signPublic);
  if (!key) {
    if (imported.size >= IMPORT_CACHE) imported.clear();
    key = importSigningPublicKey(signPublic);
    imported.set(signPublic, key);
    // A key that fails to import is not kept.
    key.catch(() => imported.delete(signPublic));
  }
  return key;
}
