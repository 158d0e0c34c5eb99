import { assertKey, exportPublicKeyRaw } from "./account-keys";
import { type Bytes, base64urlEncode, concatBytes, utf8Encode, wipe } from "./bytes";
import { MAX_SEALED_PLAINTEXT, type SealedEnvelope, associatedData, field, parseEnvelope } from "./envelope";
import { CryptoError } from "./errors";
import {
  type Key,
  type KeyPair,
  aesGcmDecrypt,
  aesGcmEncrypt,
  hkdfSha256,
  importAesGcmKey,
  randomBytes,
  subtle,
  x25519,
} from "./primitives";

/**
 * Sealing a small secret (a group, conversation or record key) for one recipient's X25519 key:
 * an ephemeral X25519 key agreement, HKDF-SHA-256 and AES-256-GCM, in the manner of HPKE base
 * mode. Anyone can seal; only the recipient can open; the sender is anonymous (sign the
 * surrounding record if the recipient must know who sealed it).
 *
 * The context names what is sealed and for what, e.g. "group-key:<groupId>:<epoch>". It goes
 * into the key derivation, so a sealed key presented under another context (another group,
 * epoch or purpose) does not open. It is not stored: the opener states what it expects.
 */
export interface SealOptions {
  context: string;
}

const ALG = "x25519-hkdf-sha256-aes256gcm" as const;
const CONTEXT = /^[A-Za-z0-9._:/-]{1,128}$/;

export async function sealFor(recipientPublicKey: Key, plaintext: Uint8Array, options: SealOptions): Promise<SealedEnvelope> {
  let ephemeral: KeyPair;
  try {
    ephemeral = (await subtle().generateKey({ name: "X25519" }, false, ["deriveBits"])) as KeyPair;
  } catch (cause) {
    throw new CryptoError("crypto_unavailable", "this runtime cannot generate X25519 keys", { cause });
  }
  return sealForWith(recipientPublicKey, plaintext, options, { ephemeral, nonce: randomBytes(12) });
}

/** sealFor with the randomness supplied: for known-answer tests only. */
export async function sealForWith(
  recipientPublicKey: Key,
  plaintext: Uint8Array,
  options: SealOptions,
  fixed: { ephemeral: KeyPair; nonce: Uint8Array },
): Promise<SealedEnvelope> {
  const context = checkContext(options);
  assertKey(recipientPublicKey, "X25519", "public");
  if (!(plaintext instanceof Uint8Array) || plaintext.length > MAX_SEALED_PLAINTEXT) {
    throw new CryptoError("invalid_input", `sealFor takes at most ${MAX_SEALED_PLAINTEXT} bytes`);
  }
  const epk = await exportPublicKeyRaw(fixed.ephemeral.publicKey);
  const recipientRaw = await exportPublicKeyRaw(recipientPublicKey);
  const shared = await x25519(fixed.ephemeral.privateKey, recipientPublicKey);
  const key = await deriveSealKey(shared, epk, recipientRaw, context);
  const header = { v: 1, kind: "sealed", alg: ALG, epk: base64urlEncode(epk), nonce: base64urlEncode(fixed.nonce) } as const;
  const ct = await aesGcmEncrypt(key, fixed.nonce, plaintext, associatedData(header));
  return parseEnvelope({ ...header, ct: base64urlEncode(ct) }, "sealed");
}

/**
 * Opens a sealed envelope with the recipient's X25519 key pair (the public half is part of the
 * derivation). Wrong key, wrong context or any alteration: decrypt_failed.
 */
export async function openSealed(envelope: SealedEnvelope | string, recipient: KeyPair, options: SealOptions): Promise<Bytes> {
  const env = parseEnvelope(envelope, "sealed");
  const context = checkContext(options);
  assertKey(recipient?.privateKey, "X25519", "private");
  assertKey(recipient?.publicKey, "X25519", "public");
  const epk = field(env, "epk");
  let ephemeralPublic: Key;
  let shared: Bytes;
  try {
    ephemeralPublic = await subtle().importKey("raw", epk, { name: "X25519" }, true, []);
    shared = await x25519(recipient.privateKey, ephemeralPublic);
  } catch (cause) {
    // An altered or low-order ephemeral key is just another way for the envelope to be wrong.
    throw new CryptoError("decrypt_failed", "the data could not be decrypted", { cause });
  }
  const key = await deriveSealKey(shared, epk, await exportPublicKeyRaw(recipient.publicKey), context);
  return aesGcmDecrypt(key, field(env, "nonce"), field(env, "ct"), associatedData({ ...env }));
}

async function deriveSealKey(shared: Bytes, epk: Bytes, recipientPublic: Bytes, context: string): Promise<Key> {
  try {
    // Both public keys in the salt bind the key to this exact pair (as HPKE's key schedule does).
    const raw = await hkdfSha256(shared, concatBytes(epk, recipientPublic), utf8Encode(`sealwork/v1/seal/${context}`), 32);
    const key = await importAesGcmKey(raw);
    wipe(raw);
    return key;
  } finally {
    wipe(shared);
  }
}

function checkContext(options: SealOptions): string {
  const context = options?.context;
  if (typeof context !== "string" || !CONTEXT.test(context)) {
    throw new CryptoError("invalid_input", "the seal context must be 1 to 128 characters of A-Z a-z 0-9 . _ : / -");
  }
  return context;
}
