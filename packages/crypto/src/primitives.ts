import { argon2id } from "hash-wasm";
import { type Bytes, copyBytes } from "./bytes";
import { CryptoError } from "./errors";

/**
 * Thin wrappers over WebCrypto and hash-wasm. Internal: the protocol modules build on these,
 * tests check them against published vectors, and nothing outside the package calls them.
 */

type Subtle = typeof globalThis.crypto.subtle;

/**
 * A WebCrypto key. Spelled through the subtle API because Node's typings and the DOM's name
 * the type differently, and this source is compiled under both.
 */
export type Key = Parameters<Subtle["encrypt"]>[1];

/** A private and public key of one algorithm (CryptoKeyPair without depending on DOM types). */
export interface KeyPair {
  privateKey: Key;
  publicKey: Key;
}

export function subtle(): Subtle {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new CryptoError("crypto_unavailable", "WebCrypto (crypto.subtle) is not available");
  return s;
}

export function randomBytes(length: number): Bytes {
  if (!globalThis.crypto?.getRandomValues) {
    throw new CryptoError("crypto_unavailable", "crypto.getRandomValues is not available");
  }
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export async function sha256(data: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await subtle().digest("SHA-256", copyBytes(data)));
}

export async function sha384(data: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await subtle().digest("SHA-384", copyBytes(data)));
}

export async function sha512(data: Uint8Array): Promise<Bytes> {
  return new Uint8Array(await subtle().digest("SHA-512", copyBytes(data)));
}

/**
 * HMAC-SHA-256 keyed with raw bytes. The HMAC key is imported non-extractable and dropped after
 * one use; WebCrypto cannot use an AES key for HMAC, so callers holding an AES key need its raw
 * bytes (docs/protocol.md, key commitments).
 */
export async function hmacSha256(rawKey: Uint8Array, data: Uint8Array): Promise<Bytes> {
  const key = await subtle().importKey("raw", copyBytes(rawKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle().sign("HMAC", key, copyBytes(data)));
}

export async function hkdfSha256(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Bytes> {
  const base = await subtle().importKey("raw", copyBytes(ikm), "HKDF", false, ["deriveBits"]);
  const bits = await subtle().deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: copyBytes(salt), info: copyBytes(info) },
    base,
    length * 8,
  );
  return new Uint8Array(bits);
}

/** Derived keys are never extractable: nothing needs to read them back. */
export async function importAesGcmKey(raw: Uint8Array, extractable = false): Promise<Key> {
  if (raw.length !== 32) throw new CryptoError("invalid_key", "an AES-256-GCM key has 32 bytes");
  return subtle().importKey("raw", copyBytes(raw), { name: "AES-GCM", length: 256 }, extractable, [
    "encrypt",
    "decrypt",
  ]);
}

export function assertAesGcmKey(key: Key): void {
  const algorithm = key?.algorithm as { name?: string; length?: number } | undefined;
  if (key?.type !== "secret" || algorithm?.name !== "AES-GCM" || algorithm.length !== 256) {
    throw new CryptoError("invalid_key", "expected an AES-256-GCM key");
  }
}

export async function aesGcmEncrypt(key: Key, nonce: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<Bytes> {
  const ct = await subtle().encrypt(
    { name: "AES-GCM", iv: copyBytes(nonce), additionalData: copyBytes(aad), tagLength: 128 },
    key,
    copyBytes(plaintext),
  );
  return new Uint8Array(ct);
}

/** Any failure to authenticate becomes decrypt_failed: callers must not learn why. */
export async function aesGcmDecrypt(key: Key, nonce: Uint8Array, ciphertext: Uint8Array, aad: Uint8Array): Promise<Bytes> {
  try {
    const pt = await subtle().decrypt(
      { name: "AES-GCM", iv: copyBytes(nonce), additionalData: copyBytes(aad), tagLength: 128 },
      key,
      copyBytes(ciphertext),
    );
    return new Uint8Array(pt);
  } catch (cause) {
    throw new CryptoError("decrypt_failed", "the data could not be decrypted", { cause });
  }
}

/**
 * X25519 shared secret. WebCrypto already refuses an all-zero result (a low-order public
 * key); the explicit check keeps that true on any engine that forgets.
 */
export async function x25519(privateKey: Key, publicKey: Key): Promise<Bytes> {
  let shared: Bytes;
  try {
    shared = new Uint8Array(await subtle().deriveBits({ name: "X25519", public: publicKey }, privateKey, 256));
  } catch (cause) {
    throw new CryptoError("invalid_key", "X25519 key agreement failed", { cause });
  }
  if (shared.every((byte) => byte === 0)) throw new CryptoError("invalid_key", "X25519 produced a zero secret");
  return shared;
}

export interface Argon2idParams {
  /** Memory in KiB (1024 bytes). */
  memoryKiB: number;
  /** Passes over the memory (Argon2's t). */
  iterations: number;
  /** Lanes (Argon2's p). hash-wasm runs lanes one after another, so more lanes cost time here. */
  parallelism: number;
}

export async function argon2idRaw(password: Uint8Array, salt: Uint8Array, params: Argon2idParams, length: number): Promise<Bytes> {
  const out = await argon2id({
    password: copyBytes(password),
    salt: copyBytes(salt),
    memorySize: params.memoryKiB,
    iterations: params.iterations,
    parallelism: params.parallelism,
    hashLength: length,
    outputType: "binary",
  });
  return copyBytes(out);
}
