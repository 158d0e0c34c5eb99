import { ATTACHMENT_MAX_BYTES, type Response, THUMB_MAX_BYTES } from "@sealwork/contracts";
import {
  type FileStream,
  base64urlDecode,
  base64urlEncode,
  decryptFileStream,
  encryptFileChunk,
  encryptedFileSize,
  exportFileKey,
  fileChunkCount,
  importFileStream,
  newFileStream,
  openThumbnail,
  sealThumbnail,
  serializeFileStreamHeader,
  utf8Encode,
} from "@sealwork/crypto";
import { call } from "../../../lib/api";
import { downloadableBlob, safeImageBlob } from "../../../lib/safe-image";
import { type FileRef, isImage } from "./file-ref";
import { queryKeys } from "../../../lib/query-keys";
import { makeThumbnail } from "./thumbnail";

/**
 * Moving encrypted files between the browser and the bucket (docs/protocol.md, Files in chunks),
 * for a conversation's attachments and a group's drive alike: the file is read, encrypted and
 * uploaded a few parts at a time (two parts on their way while the next is encrypted), and
 * downloads are decrypted as they stream in, so memory stays flat whatever the file size.
 */

/** Attempts per part when the network or the bucket fails (not when the user cancels). */
const PUT_ATTEMPTS = 3;
/** Parts sent at the same time (docs/benchmarks.md, the drive's upload). */
const PARTS_IN_FLIGHT = 2;
/** File chunks read from the file at a time, for upload. */
const CHUNKS_PER_READ = 8;
/** Decrypted chunks are handed to a Blob every so often, so the page does not hold them all. */
const CHUNKS_PER_BLOB = 32;

/** A part of an upload: the encrypted bytes it holds, in order. */
type Part = Uint8Array<ArrayBuffer>[];
const bytesIn = (part: Part) => part.reduce((size, piece) => size + piece.length, 0);

export type TransferFailure = "tooLarge" | "failed";

export class TransferError extends Error {
  readonly reason: TransferFailure;
  constructor(reason: TransferFailure, message: string = reason) {
    super(message);
    this.name = "TransferError";
    this.reason = reason;
  }
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/**
 * Where a file's encrypted bytes go and come from: a conversation's attachments, a group's drive
 * (its own routes, the same protocol: docs/api.md, Attachments).
 */
export interface FileSpace {
  /** The space in caches (a decrypted thumbnail is kept under it with the file's id). */
  key: readonly unknown[];
  start(body: { size: number; thumb_size?: number }, signal?: AbortSignal): Promise<Response<"POST /api/conversations/{id}/attachments">>;
  complete(id: number, body: { etags?: string[] }, signal?: AbortSignal): Promise<unknown>;
  link(id: number, thumb: boolean, signal?: AbortSignal): Promise<{ url: string; size: number }>;
}

/** A conversation's attachments. */
export const conversationSpace = (conversationId: number): FileSpace => ({
  key: queryKeys.conversations.one(conversationId),
  start: (body, signal) => call("POST /api/conversations/{id}/attachments", { params: { id: conversationId }, body, signal }),
  complete: (aid, body, signal) => call("POST /api/conversations/{id}/attachments/{aid}/complete", { params: { id: conversationId, aid }, body, signal }),
  link: (aid, thumb, signal) => call("GET /api/conversations/{id}/attachments/{aid}", { params: { id: conversationId, aid }, query: thumb ? { thumb: "1" } : {}, signal }),
});

export interface TransferOptions {
  /** Bytes done and the total (encrypted bytes for uploads). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Encrypts and uploads one file; answers what the sealed payload (a message, a drive item) carries about it. */
export async function uploadFile(space: FileSpace, file: File, { onProgress, signal }: TransferOptions = {}): Promise<FileRef> {
  if (file.size > ATTACHMENT_MAX_BYTES) throw new TransferError("tooLarge");
  const stream = await newFileStream();
  const total = encryptedFileSize(file.size, stream.header.chunk);
  const thumb = isImage(file) ? await encryptedThumbnail(stream, file) : null;
  const upload = await space.start({ size: total, ...(thumb ? { thumb_size: thumb.length } : {}) }, signal);
  onProgress?.(0, total);
  const etags = await putParts(upload.parts, encryptedParts(file, stream, upload.part_size), (done) => onProgress?.(done, total), signal);
  if (thumb && upload.thumb_url) await putWithRetry(upload.thumb_url, [thumb as Uint8Array<ArrayBuffer>], () => undefined, signal);
  await space.complete(upload.id, upload.multipart ? { etags } : {}, signal);
  return {
    id: upload.id,
    name: file.name,
    type: file.type,
    size: file.size,
    key: base64urlEncode(await exportFileKey(stream)),
    header: serializeFileStreamHeader(stream.header),
    thumb: Boolean(thumb && upload.thumb_url),
  };
}

/**
 * PUTs the parts to their URLs, PARTS_IN_FLIGHT at a time, with the next part encrypted while they
 * are on their way (at most PARTS_IN_FLIGHT + 1 parts in memory); answers the ETags in part order.
 * `onProgress` gets the bytes sent so far. The first part that fails (after its retries) stops the
 * others, and so does the caller's signal.
 */
async function putParts(urls: readonly { url: string }[], parts: AsyncGenerator<Part>, onProgress: (done: number) => void, signal?: AbortSignal): Promise<string[]> {
  const stop = new AbortController();
  const stopped = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const etags: string[] = [];
  const sending = new Map<number, number>();
  let sent = 0;
  let taken = 0;
  const report = () => onProgress(sent + [...sending.values()].reduce((sum, n) => sum + n, 0));
  // One part ahead: an async generator answers its next() calls in order, one part each.
  let ahead = parts.next();
  const take = () => {
    const part = ahead;
    ahead = parts.next();
    // An error of the part being encrypted surfaces when it is taken, not as an unhandled rejection meanwhile.
    ahead.catch(() => undefined);
    return { index: taken++, part };
  };
  async function lane(): Promise<void> {
    for (;;) {
      const { index, part } = take();
      const { value: body, done } = await part;
      if (done) return;
      const url = urls[index]?.url;
      if (!url) throw new TransferError("failed", "the server gave fewer part URLs than the file has parts");
      sending.set(index, 0);
      etags[index] = await putWithRetry(url, body, (loaded) => (sending.set(index, loaded), report()), stopped);
      sending.delete(index);
      sent += bytesIn(body);
      report();
    }
  }
  const lanes = Array.from({ length: PARTS_IN_FLIGHT }, () =>
    lane().catch((error: unknown) => {
      stop.abort();
      throw error;
    }),
  );
  try {
    await Promise.all(lanes);
  } finally {
    // Every lane has settled (or is stopped), so the generator's file reads and encryption stop too.
    stop.abort();
    await Promise.allSettled(lanes);
    await parts.return(undefined);
  }
  return etags;
}

/** A 200 px thumbnail encrypted under the file key, or null when the image cannot be drawn. */
async function encryptedThumbnail(stream: FileStream, file: Blob): Promise<Uint8Array | null> {
  const image = await makeThumbnail(file);
  if (!image) return null;
  const bytes = utf8Encode(await sealThumbnail(stream.key, image));
  return bytes.length <= THUMB_MAX_BYTES ? bytes : null;
}

/**
 * The encrypted file cut into upload parts of `partSize` bytes, each the encrypted chunks it holds
 * (and pieces of the chunks at its edges: a part is not a whole number of chunks), so no part is
 * copied together in the page. The file is read CHUNKS_PER_READ chunks at a time (a read of 8 MiB
 * costs Chromium half the CPU of eight reads of 1 MiB), the next read while these are encrypted.
 * Holds one part's chunks and two reads.
 */
export async function* encryptedParts(file: Blob, stream: FileStream, partSize: number): AsyncGenerator<Part> {
  const { chunk } = stream.header;
  const count = fileChunkCount(file.size, chunk);
  const read = (first: number) => (first < count ? file.slice(first * chunk, (first + CHUNKS_PER_READ) * chunk).arrayBuffer() : null);
  let pieces: Uint8Array<ArrayBuffer>[] = [];
  let filled = 0;
  let reading = read(0);
  for (let first = 0; first < count; first += CHUNKS_PER_READ) {
    const block = new Uint8Array(await reading!);
    reading = read(first + CHUNKS_PER_READ);
    // A read that fails while these chunks are encrypted surfaces when it is awaited.
    reading?.catch(() => undefined);
    for (let i = first; i < Math.min(first + CHUNKS_PER_READ, count); i++) {
      const plain = block.subarray((i - first) * chunk, (i - first + 1) * chunk);
      let encrypted = (await encryptFileChunk(stream, i, i === count - 1, plain)) as Uint8Array<ArrayBuffer>;
      while (encrypted.length > 0) {
        const take = Math.min(encrypted.length, partSize - filled);
        pieces.push(encrypted.subarray(0, take));
        filled += take;
        encrypted = encrypted.subarray(take);
        if (filled === partSize) {
          yield pieces;
          pieces = [];
          filled = 0;
        }
      }
    }
  }
  if (filled > 0) yield pieces;
}

async function putWithRetry(url: string, body: Part, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await put(url, body, onProgress, signal);
    } catch (error) {
      if (isAbort(error) || attempt >= PUT_ATTEMPTS) throw error;
    }
  }
}

/**
 * A PUT with upload progress (fetch has none); answers the ETag, which completes multipart uploads.
 * The body goes as a Blob: Chromium sends a typed-array body several times slower (npm run bench).
 * The Blob is made here, when it is sent, not when the part is encrypted: a Blob's bytes live in
 * the browser's blob storage until the page's garbage collector drops it, and a part waiting its
 * turn should not add to that.
 */
function put(url: string, body: Part, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("The upload was cancelled.", "AbortError"));
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300 ? resolve(xhr.getResponseHeader("ETag") ?? "") : reject(new TransferError("failed", `the bucket answered ${xhr.status}`));
    xhr.onerror = () => reject(new TransferError("failed", "the upload failed"));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(new Blob(body));
  });
}

function fileStreamOf(file: FileRef): Promise<FileStream> {
  return importFileStream(base64urlDecode(file.key), file.header);
}

/**
 * Downloads and decrypts a whole attachment as it streams in; answers a Blob ready to save, typed
 * application/octet-stream whatever the sender's type says: a blob URL of it only ever downloads,
 * it never opens as a page of this origin (an "HTML" or "SVG" file would run as the app).
 */
export async function downloadFile(space: FileSpace, file: FileRef, { onProgress, signal }: TransferOptions = {}): Promise<Blob> {
  const stream = await fileStreamOf(file);
  const { url, size } = await space.link(file.id, false, signal);
  const response = await fetch(url, { signal });
  if (!response.ok || !response.body) throw new TransferError("failed", `the bucket answered ${response.status}`);
  const reader = response.body.getReader();
  let received = 0;
  onProgress?.(0, size);
  async function* pieces() {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.length;
      onProgress?.(received, size);
      yield value;
    }
  }
  const blobs: Blob[] = [];
  let chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of decryptFileStream(stream, pieces())) {
    chunks.push(chunk as Uint8Array<ArrayBuffer>);
    if (chunks.length >= CHUNKS_PER_BLOB) {
      blobs.push(new Blob(chunks));
      chunks = [];
    }
  }
  blobs.push(new Blob(chunks));
  return downloadableBlob(blobs);
}

/** The decrypted thumbnail of an image attachment: a PNG, JPEG, GIF or WebP by its bytes, else refused. */
export async function fetchThumbnail(space: FileSpace, file: FileRef, signal?: AbortSignal): Promise<Blob> {
  const stream = await fileStreamOf(file);
  const { url } = await space.link(file.id, true, signal);
  const response = await fetch(url, { signal });
  if (!response.ok) throw new TransferError("failed", `the bucket answered ${response.status}`);
  const image = await openThumbnail(stream.key, await response.text());
  return safeImageBlob(image);
}
