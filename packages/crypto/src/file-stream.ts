import { type Bytes, base64urlEncode, concatBytes, tryBase64urlDecode, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { CryptoError } from "./errors";
import { type Key, aesGcmDecrypt, aesGcmEncrypt, assertAesGcmKey, importAesGcmKey, randomBytes, subtle } from "./primitives";

/**
 * Files in chunks (docs/protocol.md, "Files in chunks"): the STREAM construction over
 * AES-256-GCM, so files of any size encrypt and decrypt chunk by chunk with flat memory.
 *
 * - A random 32-byte file key per file, and a header naming the chunk size and a random
 *   7-byte nonce prefix.
 * - Chunk i (from 0) is AES-256-GCM with nonce = prefix ‖ uint32_be(i) ‖ last, where last is 1
 *   for the final chunk and 0 otherwise, and the header's canonical JSON as associated data.
 *   A dropped, reordered, duplicated or truncated chunk fails to decrypt; so does cutting the
 *   file after any chunk, because only the real final chunk is marked.
 * - Every chunk but the last holds exactly `chunk` plaintext bytes; the last holds 0 to `chunk`
 *   (an empty file is one empty final chunk). Each encrypted chunk is 16 bytes longer.
 *
 * The file key and header travel inside the (encrypted) message that attaches the file; the
 * bucket holds only the concatenated encrypted chunks.
 */
export interface FileStreamHeader {
  v: 1;
  kind: "file-stream";
  alg: "aes256gcm-stream";
  /** Plaintext bytes per chunk. */
  chunk: number;
  /** 7 random bytes, base64url. */
  prefix: string;
}

export const FILE_CHUNK_SIZE = 1024 * 1024;
/** Chunk sizes a reader accepts: 1 KiB to 16 MiB (a header is attacker-supplied data). */
const CHUNK_MIN = 1024;
const CHUNK_MAX = 16 * 1024 * 1024;
const TAG = 16;
/** 2^32 chunks is where the counter would wrap. */
const MAX_CHUNKS = 2 ** 32;

export interface FileStream {
  key: Key;
  header: FileStreamHeader;
}

/** A new file key and header. The key is extractable: it travels inside the message payload. */
export async function newFileStream(chunk = FILE_CHUNK_SIZE): Promise<FileStream> {
  checkChunk(chunk);
  const key = await subtle().generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  return { key: key as Key, header: { v: 1, kind: "file-stream", alg: "aes256gcm-stream", chunk, prefix: base64urlEncode(randomBytes(7)) } };
}

/** Reads a header from its JSON text or object; anything else is malformed_envelope. */
export function parseFileStreamHeader(input: unknown): FileStreamHeader {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input) as unknown;
    } catch {
      throw new CryptoError("malformed_envelope", "the file header is not JSON");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new CryptoError("malformed_envelope", "the file header is not an object");
  const h = value as Record<string, unknown>;
  const keys = Object.keys(h).sort().join(",");
  if (keys !== "alg,chunk,kind,prefix,v") throw new CryptoError("malformed_envelope", "the file header has other fields than v, kind, alg, chunk, prefix");
  if (h.v !== 1) throw new CryptoError("unsupported_version", "unknown file header version");
  if (h.kind !== "file-stream") throw new CryptoError("wrong_kind", "not a file-stream header");
  if (h.alg !== "aes256gcm-stream") throw new CryptoError("unsupported_algorithm", "unknown file stream algorithm");
  if (typeof h.chunk !== "number") throw new CryptoError("malformed_envelope", "the chunk size is not a number");
  checkChunk(h.chunk, "malformed_envelope");
  if (tryBase64urlDecode(h.prefix)?.length !== 7) throw new CryptoError("malformed_envelope", "the nonce prefix is not 7 bytes");
  return { v: 1, kind: "file-stream", alg: "aes256gcm-stream", chunk: h.chunk, prefix: h.prefix as string };
}

export function serializeFileStreamHeader(header: FileStreamHeader): string {
  return canonicalJson(parseFileStreamHeader(header));
}

/** How many chunks a file of `size` plaintext bytes has (at least one). */
export function fileChunkCount(size: number, chunk: number): number {
  if (!Number.isSafeInteger(size) || size < 0) throw new CryptoError("invalid_input", "a file size is a non-negative integer");
  return Math.max(1, Math.ceil(size / chunk));
}

/** The encrypted size of a file of `size` plaintext bytes. */
export function encryptedFileSize(size: number, chunk: number): number {
  return size + TAG * fileChunkCount(size, chunk);
}

export async function encryptFileChunk(stream: FileStream, index: number, last: boolean, plaintext: Uint8Array): Promise<Bytes> {
  const header = parseFileStreamHeader(stream.header);
  assertAesGcmKey(stream.key);
  if (!(plaintext instanceof Uint8Array) || plaintext.length > header.chunk || (!last && plaintext.length !== header.chunk)) {
    throw new CryptoError("invalid_input", "every chunk but the last holds exactly the chunk size");
  }
  return aesGcmEncrypt(stream.key, nonceFor(header, index, last), plaintext, headerAad(header));
}

/** Wrong key, wrong position, a changed header or altered bytes: decrypt_failed. */
export async function decryptFileChunk(stream: FileStream, index: number, last: boolean, ciphertext: Uint8Array): Promise<Bytes> {
  const header = parseFileStreamHeader(stream.header);
  assertAesGcmKey(stream.key);
  if (!(ciphertext instanceof Uint8Array) || ciphertext.length < TAG || ciphertext.length > header.chunk + TAG) {
    throw new CryptoError("decrypt_failed", "the data could not be decrypted");
  }
  return aesGcmDecrypt(stream.key, nonceFor(header, index, last), ciphertext, headerAad(header));
}

/**
 * Decrypts a whole encrypted stream given as pieces of any size (a fetch body), yielding the
 * plaintext chunk by chunk. Holds at most one encrypted chunk plus one piece in memory. A stream
 * that ends early, or runs on past the final chunk, fails with decrypt_failed.
 */
export async function* decryptFileStream(stream: FileStream, pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Bytes> {
  const header = parseFileStreamHeader(stream.header);
  const full = header.chunk + TAG;
  let pending: Bytes = new Uint8Array(0);
  let index = 0;
  for await (const piece of pieces) {
    pending = pending.length ? concatBytes(pending, piece) : new Uint8Array(piece);
    // Keep the last full chunk back until more arrives: only the end of the stream says it is last.
    while (pending.length > full) {
      yield await decryptFileChunk(stream, index++, false, pending.subarray(0, full));
      pending = pending.slice(full);
    }
  }
  yield await decryptFileChunk(stream, index, true, pending);
}

/** The file key's raw bytes, for the message payload. */
export async function exportFileKey(stream: FileStream): Promise<Bytes> {
  assertAesGcmKey(stream.key);
  return new Uint8Array(await subtle().exportKey("raw", stream.key));
}

/** A stream from the payload's key bytes and header text. */
export async function importFileStream(rawKey: Uint8Array, header: unknown): Promise<FileStream> {
  return { key: await importAesGcmKey(rawKey), header: parseFileStreamHeader(header) };
}

function checkChunk(chunk: number, code: "invalid_input" | "malformed_envelope" = "invalid_input"): void {
  if (!Number.isSafeInteger(chunk) || chunk < CHUNK_MIN || chunk > CHUNK_MAX) throw new CryptoError(code, "the chunk size is outside 1 KiB to 16 MiB");
}

function nonceFor(header: FileStreamHeader, index: number, last: boolean): Bytes {
  if (!Number.isSafeInteger(index) || index < 0 || index >= MAX_CHUNKS) throw new CryptoError("invalid_input", "a chunk index is 0 to 2^32 - 1");
  const nonce = new Uint8Array(12);
  nonce.set(tryBase64urlDecode(header.prefix)!, 0);
  new DataView(nonce.buffer).setUint32(7, index, false);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

function headerAad(header: FileStreamHeader): Bytes {
  return utf8Encode(canonicalJson(header));
}
