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
 * for a conversation's attachments and a group's drive alike (the next part encrypted while the
 * current one uploads):
 * the file is read, encrypted and uploaded one part at a time, and downloads are decrypted as
 * they stream in, so memory stays flat whatever the file size.
 */

/** Attempts per part when the network or the bucket fails (not when the user cancels). */
const PUT_ATTEMPTS = 3;
/** Decrypted chunks are handed to a Blob every so often, so the page does not hold them all. */
const CHUNKS_PER_BLOB = 32;

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
  const etags: string[] = [];
  let done = 0;
  onProgress?.(0, total);
  // One part ahead: the next part is read and encrypted while this one is on its way, so the
  // upload is not held up by the encryption (two parts in memory at most).
  const parts = encryptedParts(file, stream, upload.part_size);
  let next = parts.next();
  for (;;) {
    const { value: part, done: finished } = await next;
    if (finished) break;
    next = parts.next();
    // An error of the part being encrypted surfaces when it is awaited, not as an unhandled rejection meanwhile.
    next.catch(() => undefined);
    const url = upload.parts[etags.length]?.url;
    if (!url) throw new TransferError("failed", "the server gave fewer part URLs than the file has parts");
    etags.push(await putWithRetry(url, part, (loaded) => onProgress?.(done + loaded, total), signal));
    done += part.length;
  }
  if (thumb && upload.thumb_url) await putWithRetry(upload.thumb_url, thumb, () => undefined, signal);
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

/** A 200 px thumbnail encrypted under the file key, or null when the image cannot be drawn. */
async function encryptedThumbnail(stream: FileStream, file: Blob): Promise<Uint8Array | null> {
  const image = await makeThumbnail(file);
  if (!image) return null;
  const bytes = utf8Encode(await sealThumbnail(stream.key, image));
  return bytes.length <= THUMB_MAX_BYTES ? bytes : null;
}

/**
 * The encrypted file cut into upload parts of `partSize` bytes: chunks are read from the file,
 * encrypted and copied into the part being filled; a full part is handed out before the next
 * chunk is read. Holds one part and one chunk.
 */
export async function* encryptedParts(file: Blob, stream: FileStream, partSize: number): AsyncGenerator<Uint8Array> {
  const { chunk } = stream.header;
  const count = fileChunkCount(file.size, chunk);
  let remaining = encryptedFileSize(file.size, chunk);
  let part = new Uint8Array(Math.min(partSize, remaining));
  let filled = 0;
  for (let i = 0; i < count; i++) {
    const plain = new Uint8Array(await file.slice(i * chunk, (i + 1) * chunk).arrayBuffer());
    let encrypted = await encryptFileChunk(stream, i, i === count - 1, plain);
    while (encrypted.length > 0) {
      const take = Math.min(encrypted.length, part.length - filled);
      part.set(encrypted.subarray(0, take), filled);
      filled += take;
      encrypted = encrypted.subarray(take);
      if (filled === part.length) {
        yield part;
        remaining -= part.length;
        part = new Uint8Array(Math.min(partSize, remaining));
        filled = 0;
      }
    }
  }
}

async function putWithRetry(url: string, body: Uint8Array, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await put(url, body, onProgress, signal);
    } catch (error) {
      if (isAbort(error) || attempt >= PUT_ATTEMPTS) throw error;
    }
  }
}

/** A PUT with upload progress (fetch has none); answers the ETag, which completes multipart uploads. */
function put(url: string, body: Uint8Array, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<string> {
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
    // As a Blob: Chromium sends a typed-array body about three times slower (npm run bench).
    xhr.send(new Blob([body as Uint8Array<ArrayBuffer>]));
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
