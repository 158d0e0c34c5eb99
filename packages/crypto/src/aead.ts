import { type Bytes, base64urlEncode, copyBytes, utf8Encode } from "./bytes";
import { type AeadEnvelope, MAX_AEAD_PLAINTEXT, associatedData, field, parseEnvelope } from "./envelope";
import { CryptoError } from "./errors";
import { type Key, aesGcmDecrypt, aesGcmEncrypt, assertAesGcmKey, importAesGcmKey, randomBytes, subtle } from "./primitives";

/**
 * Symmetric keys (group epoch keys, conversation keys, record DEKs) and authenticated
 * encryption under them with AES-256-GCM and a random 12-byte nonce per message.
 *
 * Random nonces are safe for up to 2^32 messages under one key (NIST SP 800-38D); a group
 * epoch or a conversation stays far below that, and a record key encrypts one payload.
 *
 * `aad` binds the ciphertext to where it belongs (e.g. "mote:<groupId>:<moteId>:<epoch>"),
 * so the server cannot move a ciphertext to another record or conversation unnoticed. It is
 * not stored in the envelope: the opener supplies what it expects. Strings are taken as UTF-8
 * without normalisation (they are ids).
 */
export interface AeadOptions {
  aad?: Uint8Array | string;
}

const ALG = "aes256gcm" as const;

/** A new random AES-256-GCM key; extractable, so it can be sealed for members. */
export async function generateSymmetricKey(): Promise<Key> {
  return subtle().generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]) as Promise<Key>;
}

export async function exportSymmetricKey(key: Key): Promise<Bytes> {
  assertAesGcmKey(key);
  if (!key.extractable) throw new CryptoError("invalid_key", "the key is not extractable");
  return new Uint8Array(await subtle().exportKey("raw", key));
}

/**
 * Exactly 32 bytes, else invalid_key. Extractable unless `extractable: false` (a key that will
 * only encrypt and decrypt here should not be readable back by whatever else runs in the page).
 */
export async function importSymmetricKey(raw: Uint8Array, { extractable = true }: { extractable?: boolean } = {}): Promise<Key> {
  if (!(raw instanceof Uint8Array)) throw new CryptoError("invalid_key", "expected 32 key bytes");
  return importAesGcmKey(raw, extractable);
}

export async function encrypt(key: Key, plaintext: Uint8Array, options: AeadOptions = {}): Promise<AeadEnvelope> {
  return encryptWith(key, plaintext, options, randomBytes(12));
}

/** encrypt with the nonce supplied: for known-answer tests only. */
export async function encryptWith(key: Key, plaintext: Uint8Array, options: AeadOptions, nonce: Uint8Array): Promise<AeadEnvelope> {
  assertAesGcmKey(key);
  if (!(plaintext instanceof Uint8Array) || plaintext.length > MAX_AEAD_PLAINTEXT) {
    throw new CryptoError("invalid_input", `encrypt takes at most ${MAX_AEAD_PLAINTEXT} bytes`);
  }
  const header = { v: 1, kind: "aead", alg: ALG, nonce: base64urlEncode(nonce) } as const;
  const ct = await aesGcmEncrypt(key, nonce, plaintext, associatedData(header, aadBytes(options)));
  return parseEnvelope({ ...header, ct: base64urlEncode(ct) }, "aead");
}

/** Wrong key, wrong aad or any alteration: decrypt_failed. */
export async function decrypt(key: Key, envelope: AeadEnvelope | string, options: AeadOptions = {}): Promise<Bytes> {
  const env = parseEnvelope(envelope, "aead");
  assertAesGcmKey(key);
  return aesGcmDecrypt(key, field(env, "nonce"), field(env, "ct"), associatedData({ ...env }, aadBytes(options)));
}

function aadBytes(options: AeadOptions): Bytes {
  const aad = options?.aad;
  if (aad === undefined) return new Uint8Array(0);
  if (typeof aad === "string") return utf8Encode(aad);
  if (aad instanceof Uint8Array) return copyBytes(aad);
  throw new CryptoError("invalid_input", "aad must be bytes or a string");
}
