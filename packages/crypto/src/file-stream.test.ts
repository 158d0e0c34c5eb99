import { createCipheriv } from "node:crypto";
import { describe, expect, it } from "vitest";
import { concatBytes, hexEncode } from "./bytes";
import {
  decryptFileChunk,
  decryptFileStream,
  encryptFileChunk,
  encryptedFileSize,
  exportFileKey,
  fileChunkCount,
  type FileStream,
  importFileStream,
  newFileStream,
  parseFileStreamHeader,
  serializeFileStreamHeader,
} from "./file-stream";
import { isCryptoError } from "./errors";

const CHUNK = 1024;

function bytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

/** Encrypts `data` as the uploader does: chunk by chunk, the final one marked. */
async function encryptAll(stream: FileStream, data: Uint8Array): Promise<Uint8Array[]> {
  const count = fileChunkCount(data.length, stream.header.chunk);
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const piece = data.subarray(i * stream.header.chunk, (i + 1) * stream.header.chunk);
    out.push(await encryptFileChunk(stream, i, i === count - 1, piece));
  }
  return out;
}

async function decryptAll(stream: FileStream, pieces: Uint8Array[]): Promise<Uint8Array> {
  async function* source() {
    for (const p of pieces) yield p;
  }
  const out: Uint8Array[] = [];
  for await (const chunk of decryptFileStream(stream, source())) out.push(chunk);
  return concatBytes(...out);
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isCryptoError(error)) return error.code;
    throw error;
  }
  return "no error";
}

describe("file stream", () => {
  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17])("round-trips %i bytes, in pieces of any size", async (size) => {
    const stream = await newFileStream(CHUNK);
    const data = bytes(size);
    const encrypted = concatBytes(...(await encryptAll(stream, data)));
    expect(encrypted.length).toBe(encryptedFileSize(size, CHUNK));
    // The body arrives in pieces unrelated to the chunk size.
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < encrypted.length; at += 333) pieces.push(encrypted.subarray(at, at + 333));
    expect(hexEncode(await decryptAll(stream, pieces.length ? pieces : [encrypted]))).toBe(hexEncode(data));
  });

  it("opens with the key and header as they travel in the payload", async () => {
    const stream = await newFileStream(CHUNK);
    const data = bytes(2 * CHUNK + 5);
    const encrypted = await encryptAll(stream, data);
    const copy = await importFileStream(await exportFileKey(stream), serializeFileStreamHeader(stream.header));
    expect(hexEncode(await decryptAll(copy, encrypted))).toBe(hexEncode(data));
  });

  it("is AES-256-GCM with nonce = prefix ‖ uint32_be(i) ‖ last and the header as aad (checked against node:crypto)", async () => {
    const rawKey = new Uint8Array(32).fill(7);
    const header = { v: 1, kind: "file-stream", alg: "aes256gcm-stream", chunk: CHUNK, prefix: "AAECAwQFBg" } as const;
    const stream = await importFileStream(rawKey, header);
    const plaintext = new TextEncoder().encode("Grüezi");
    const ours = await encryptFileChunk(stream, 258, true, plaintext);
    // An independent implementation of the documented layout.
    const cipher = createCipheriv("aes-256-gcm", rawKey, Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 0, 0, 1, 2, 1]));
    cipher.setAAD(new TextEncoder().encode('{"alg":"aes256gcm-stream","chunk":1024,"kind":"file-stream","prefix":"AAECAwQFBg","v":1}'));
    const theirs = concatBytes(cipher.update(plaintext), cipher.final(), cipher.getAuthTag());
    expect(hexEncode(ours)).toBe(hexEncode(theirs));
  });

  describe("refuses tampering", () => {
    async function threeChunks() {
      const stream = await newFileStream(CHUNK);
      const chunks = await encryptAll(stream, bytes(2 * CHUNK + 100));
      return { stream, chunks };
    }

    it("a dropped chunk", async () => {
      const { stream, chunks } = await threeChunks();
      expect(await code(decryptAll(stream, [chunks[0]!, chunks[2]!]))).toBe("decrypt_failed");
    });
    it("reordered chunks", async () => {
      const { stream, chunks } = await threeChunks();
      expect(await code(decryptAll(stream, [chunks[1]!, chunks[0]!, chunks[2]!]))).toBe("decrypt_failed");
    });
    it("a duplicated chunk", async () => {
      const { stream, chunks } = await threeChunks();
      expect(await code(decryptAll(stream, [chunks[0]!, chunks[0]!, chunks[1]!, chunks[2]!]))).toBe("decrypt_failed");
    });
    it("truncation after a full chunk (the end is marked)", async () => {
      const { stream, chunks } = await threeChunks();
      expect(await code(decryptAll(stream, [chunks[0]!, chunks[1]!]))).toBe("decrypt_failed");
    });
    it("bytes cut from the end", async () => {
      const { stream, chunks } = await threeChunks();
      expect(await code(decryptAll(stream, [chunks[0]!, chunks[1]!, chunks[2]!.subarray(0, 50)]))).toBe("decrypt_failed");
    });
    it("a flipped bit", async () => {
      const { stream, chunks } = await threeChunks();
      const bad = new Uint8Array(chunks[1]!);
      bad[10]! ^= 1;
      expect(await code(decryptAll(stream, [chunks[0]!, bad, chunks[2]!]))).toBe("decrypt_failed");
    });
    it("another header (prefix or chunk size)", async () => {
      const { stream, chunks } = await threeChunks();
      const other = { ...stream, header: { ...stream.header, prefix: "AAAAAAAAAA" } };
      expect(await code(decryptAll(other, chunks))).toBe("decrypt_failed");
      expect(await code(decryptFileChunk({ ...stream, header: { ...stream.header, chunk: 2048 } }, 0, false, chunks[0]!))).toBe("decrypt_failed");
    });
    it("another file's key", async () => {
      const { chunks } = await threeChunks();
      const other = await newFileStream(CHUNK);
      expect(await code(decryptAll(other, chunks))).toBe("decrypt_failed");
    });
  });

  it("rejects malformed headers and misuse", async () => {
    const good = (await newFileStream(CHUNK)).header;
    expect(() => parseFileStreamHeader({ ...good, extra: 1 })).toThrow(/other fields/);
    expect(() => parseFileStreamHeader({ ...good, v: 2 })).toThrow(/version/);
    expect(() => parseFileStreamHeader({ ...good, chunk: 1 })).toThrow(/chunk size/);
    expect(() => parseFileStreamHeader({ ...good, prefix: "AA" })).toThrow(/prefix/);
    expect(() => parseFileStreamHeader("{")).toThrow(/JSON/);
    const stream = await newFileStream(CHUNK);
    expect(await code(encryptFileChunk(stream, 0, false, bytes(CHUNK - 1)))).toBe("invalid_input");
    expect(await code(encryptFileChunk(stream, 0, true, bytes(CHUNK + 1)))).toBe("invalid_input");
    expect(await code(encryptFileChunk(stream, -1, true, bytes(1)))).toBe("invalid_input");
  });
});
