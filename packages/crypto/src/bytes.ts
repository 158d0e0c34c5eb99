import { CryptoError } from "./errors";

/**
 * Byte helpers without Buffer, so the same code runs in the browser and in Node.
 *
 * `Bytes` is a Uint8Array over a plain ArrayBuffer: WebCrypto's TypeScript types refuse views
 * over SharedArrayBuffer, and copying inputs once also means a caller that mutates its array
 * while we await cannot change what gets encrypted.
 */
export type Bytes = Uint8Array<ArrayBuffer>;

export function copyBytes(input: Uint8Array): Bytes {
  return new Uint8Array(input);
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Compares without an early exit; lengths are public. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Best effort only: the engine may have copied the bytes elsewhere. */
export function wipe(bytes: Uint8Array): void {
  bytes.fill(0);
}

// A lone surrogate would be silently replaced by U+FFFD in UTF-8, so two different strings
// would hash, sign or derive the same: refuse them instead.
const LONE_SURROGATE = /\p{Cs}/u;

export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 without normalisation; strings with lone surrogates are refused (invalid_input). */
export function utf8Encode(text: string): Bytes {
  if (typeof text !== "string") throw new CryptoError("invalid_input", "expected a string");
  if (!isWellFormed(text)) throw new CryptoError("invalid_input", "string contains a lone surrogate");
  return encoder.encode(text) as Bytes;
}

/** Strict UTF-8: invalid sequences are refused (invalid_input), never replaced. */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new CryptoError("invalid_input", "bytes are not valid UTF-8", { cause });
  }
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const LOOKUP = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

/** RFC 4648 base64url without padding. */
export function base64urlEncode(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * Strict decoding: only the base64url alphabet, no padding, no whitespace, and the unused low
 * bits of the last character must be zero. So every byte string has exactly one encoding and
 * an envelope cannot be altered without changing the bytes it carries.
 * Returns undefined instead of throwing so that callers choose the error code.
 */
export function tryBase64urlDecode(text: unknown): Bytes | undefined {
  if (typeof text !== "string" || text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? LOOKUP[code]! : -1;
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (buffer >> bits) & 0xff;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

export function base64urlDecode(text: string): Bytes {
  const bytes = tryBase64urlDecode(text);
  if (!bytes) throw new CryptoError("invalid_input", "not canonical base64url");
  return bytes;
}

export function hexEncode(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

export function hexDecode(text: string): Bytes {
  if (typeof text !== "string" || !/^(?:[0-9a-f]{2})*$/.test(text)) {
    throw new CryptoError("invalid_input", "not lower-case hex");
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}
