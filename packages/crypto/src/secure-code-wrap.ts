import {
  type AccountKeys,
  assertKey,
  exportPrivateSeed,
  exportPublicKeyRaw,
  importAccountPublicKeys,
  importPrivateSeed,
} from "./account-keys";
import { type Bytes, base64urlEncode, concatBytes, equalBytes, utf8Encode, wipe } from "./bytes";
import {
  ARGON2ID_LIMITS,
  type SecureCodeWrapEnvelope,
  associatedData,
  field,
  parseEnvelope,
} from "./envelope";
import { CryptoError } from "./errors";
import {
  type Argon2idParams,
  aesGcmDecrypt,
  aesGcmEncrypt,
  argon2idRaw,
  hkdfSha256,
  importAesGcmKey,
  type Key,
  randomBytes,
} from "./primitives";
import { normalizeSecureCode } from "./secure-code";

export type { Argon2idParams };

/**
 * Defaults for new wraps: 64 MiB, 3 passes, 1 lane (RFC 9106's second recommendation with one
 * lane, since hash-wasm runs lanes sequentially and more lanes only add time). Measured per
 * unwrap: 0.25 to 0.4 s in Node 20 and about 0.37 s in Chromium 150 on the 2-core build machine;
 * 64 MiB fits phones. Smaller parameters are for tests only (docs/protocol.md has the numbers).
 */
export const ARGON2ID_DEFAULTS: Readonly<Argon2idParams> = Object.freeze({
  memoryKiB: 65536,
  iterations: 3,
  parallelism: 1,
});

const ALG = "argon2id-hkdf-sha256-aes256gcm" as const;
// HKDF after Argon2id so that the same code and salt could never yield this key for any
// other purpose (pickups may derive from codes too).
const WRAP_INFO = "sealwork/v1/secure-code-wrap";
// An account with an identity binds the instance anchor its identity rests on into the wrap key
// (docs/protocol.md §14.10, "The anchor in the backup"): only a reader that names that anchor
// opens it, so whoever opens it with the code learns the anchor, and a server cannot change it.
const BOUND_INFO = "sealwork/v2/secure-code-wrap\n";
const wrapInfo = (anchor: string | undefined) => utf8Encode(anchor === undefined ? WRAP_INFO : BOUND_INFO + anchor);

/** What a wrap is bound to: the instance anchor (a root key id) of an account with an identity. */
export interface WrapBinding {
  anchor?: string;
}

function checkAnchor(anchor: unknown): string {
  if (typeof anchor !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(anchor)) throw new CryptoError("invalid_input", "an anchor is a key id (base64url)");
  return anchor;
}

/**
 * Encrypts the account's private keys under a key derived from the secure code. The envelope
 * also carries both public keys in the clear (authenticated), so a device can tell whether
 * its stored bundle matches the server's keys before asking for the code.
 *
 * The secure code is NFC-normalised; the spec's strength rule (isValidSecureCode) is for the
 * UI to enforce, because an instance may run with a fixed default code.
 */
export async function wrapAccountKeys(
  keys: AccountKeys,
  secureCode: string,
  params: Argon2idParams = ARGON2ID_DEFAULTS,
  binding: WrapBinding = {},
): Promise<SecureCodeWrapEnvelope> {
  return wrapAccountKeysWith(keys, secureCode, params, { salt: randomBytes(16), nonce: randomBytes(12) }, binding);
}

/** wrapAccountKeys with the randomness supplied: for known-answer tests only. */
export async function wrapAccountKeysWith(
  keys: AccountKeys,
  secureCode: string,
  params: Argon2idParams,
  fixed: { salt: Uint8Array; nonce: Uint8Array },
  binding: WrapBinding = {},
): Promise<SecureCodeWrapEnvelope> {
  checkParams(params);
  const anchor = binding.anchor === undefined ? undefined : checkAnchor(binding.anchor);
  const code = normalizeSecureCode(secureCode);
  assertKey(keys?.encrypt?.publicKey, "X25519", "public");
  assertKey(keys?.sign?.publicKey, "Ed25519", "public");
  const x = await exportPrivateSeed(keys.encrypt.privateKey, "X25519");
  const ed = await exportPrivateSeed(keys.sign.privateKey, "Ed25519");
  const plaintext = concatBytes(x.seed, ed.seed);
  wipe(x.seed);
  wipe(ed.seed);
  try {
    const header = {
      v: 1,
      kind: "secure-code-wrap",
      alg: ALG,
      memoryKiB: params.memoryKiB,
      iterations: params.iterations,
      parallelism: params.parallelism,
      salt: base64urlEncode(fixed.salt),
      nonce: base64urlEncode(fixed.nonce),
      encryptPublic: base64urlEncode(x.publicRaw),
      signPublic: base64urlEncode(ed.publicRaw),
    } as const;
    // The public halves of the pair must be the ones the private halves produce; a mismatch
    // would make a bundle that unlocks to keys nobody can use.
    await assertPublicMatches(keys, x.publicRaw, ed.publicRaw);
    const stretched = await stretch(code, fixed.salt, params);
    let key: Key;
    try {
      key = await wrapKey(stretched, anchor);
    } finally {
      wipe(stretched);
    }
    const ct = await aesGcmEncrypt(key, fixed.nonce, plaintext, associatedData(header));
    return parseEnvelope({ ...header, ct: base64urlEncode(ct) }, "secure-code-wrap");
  } finally {
    wipe(plaintext);
  }
}

/**
 * Opens a secure-code-wrap envelope (object or canonical JSON). A wrong code, or any change to
 * the envelope, fails with decrypt_failed; nothing about which one is revealed. A wrap bound to an
 * anchor opens only when `anchors` names it.
 */
export async function unwrapAccountKeys(envelope: SecureCodeWrapEnvelope | string, secureCode: string, anchors: readonly string[] = []): Promise<AccountKeys> {
  return (await unwrapBoundAccountKeys(envelope, secureCode, anchors)).keys;
}

/**
 * unwrapAccountKeys, answering also the anchor the wrap is bound to (null: a wrap bound to none).
 * Tries the unbound key, then one bound to each of `anchors` (one Argon2id, then one HKDF and one
 * AES-GCM try each); none opens: decrypt_failed, as for a wrong code.
 */
export async function unwrapBoundAccountKeys(
  envelope: SecureCodeWrapEnvelope | string,
  secureCode: string,
  anchors: readonly string[],
): Promise<{ keys: AccountKeys; anchor: string | null }> {
  const env = parseEnvelope(envelope, "secure-code-wrap");
  const code = normalizeSecureCode(secureCode);
  const tries = [undefined, ...new Set(anchors.map(checkAnchor))];
  if (tries.length > 65) throw new CryptoError("invalid_input", "at most 64 anchors");
  const params = { memoryKiB: env.memoryKiB, iterations: env.iterations, parallelism: env.parallelism };
  const stretched = await stretch(code, field(env, "salt"), params);
  let plaintext: Bytes | undefined;
  let anchor: string | null = null;
  try {
    for (const candidate of tries) {
      const key = await wrapKey(stretched, candidate);
      plaintext = await aesGcmDecrypt(key, field(env, "nonce"), field(env, "ct"), associatedData({ ...env })).catch((error: unknown) => {
        if (error instanceof CryptoError && error.code === "decrypt_failed") return undefined;
        throw error;
      });
      if (plaintext) {
        anchor = candidate ?? null;
        break;
      }
    }
  } finally {
    wipe(stretched);
  }
  if (!plaintext) throw new CryptoError("decrypt_failed", "the code does not open the envelope");
  return { keys: await keysOf(env, plaintext), anchor };
}

async function keysOf(env: SecureCodeWrapEnvelope, plaintext: Bytes): Promise<AccountKeys> {
  try {
    const x = await importPrivateSeed(plaintext.subarray(0, 32), "X25519");
    const ed = await importPrivateSeed(plaintext.subarray(32, 64), "Ed25519");
    if (!equalBytes(x.publicRaw, field(env, "encryptPublic")) || !equalBytes(ed.publicRaw, field(env, "signPublic"))) {
      throw new CryptoError("invalid_key", "the private keys do not match the public keys in the envelope");
    }
    const pub = await importAccountPublicKeys({ encryptPublic: env.encryptPublic, signPublic: env.signPublic });
    return {
      encrypt: { privateKey: x.privateKey, publicKey: pub.encrypt },
      sign: { privateKey: ed.privateKey, publicKey: pub.sign },
    };
  } finally {
    wipe(plaintext);
  }
}

/** Argon2id of the code (the caller wipes the answer). */
async function stretch(code: string, salt: Uint8Array, params: Argon2idParams): Promise<Bytes> {
  const password = utf8Encode(code);
  try {
    return await argon2idRaw(password, salt, params, 32);
  } finally {
    wipe(password);
  }
}

/** The wrap key: HKDF-SHA-256 of the stretched code, bound to `anchor` when there is one. */
async function wrapKey(stretched: Bytes, anchor: string | undefined): Promise<Key> {
  const raw = await hkdfSha256(stretched, new Uint8Array(0), wrapInfo(anchor), 32);
  try {
    return await importAesGcmKey(raw);
  } finally {
    wipe(raw);
  }
}

export function checkParams(params: Argon2idParams): void {
  for (const name of ["memoryKiB", "iterations", "parallelism"] as const) {
    const value = params?.[name];
    const [min, max] = ARGON2ID_LIMITS[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw new CryptoError("invalid_input", `Argon2id ${name} must be an integer in [${min}, ${max}]`);
    }
  }
  if (params.memoryKiB < 8 * params.parallelism) throw new CryptoError("invalid_input", "Argon2id needs 8 KiB per lane");
}

async function assertPublicMatches(keys: AccountKeys, encryptPublic: Bytes, signPublic: Bytes): Promise<void> {
  const [encrypt, sign] = await Promise.all([
    exportPublicKeyRaw(keys.encrypt.publicKey),
    exportPublicKeyRaw(keys.sign.publicKey),
  ]);
  if (!equalBytes(encrypt, encryptPublic) || !equalBytes(sign, signPublic)) {
    throw new CryptoError("invalid_key", "the public keys do not belong to the private keys");
  }
}
