import type { Session } from "@sealwork/contracts";
import {
  type FileStream,
  decryptFileStream,
  encryptFileChunk,
  encryptedFileSize,
  fileChunkCount,
  newFileStream,
  sealThumbnail,
} from "@sealwork/crypto";
import { http } from "./api";

type Who = Pick<Session, "id" | "api_token">;

interface Upload {
  id: number;
  parts: { n: number; url: string }[];
  part_size: number;
  multipart: boolean;
  thumb_url: string | null;
}

/** The whole encrypted file, chunk after chunk, as the browser makes it (tests use small files). */
export async function encryptFile(stream: FileStream, data: Uint8Array): Promise<Uint8Array> {
  const { chunk } = stream.header;
  const count = fileChunkCount(data.length, chunk);
  const out = new Uint8Array(encryptedFileSize(data.length, chunk));
  let at = 0;
  for (let i = 0; i < count; i++) {
    const encrypted = await encryptFileChunk(stream, i, i === count - 1, data.subarray(i * chunk, (i + 1) * chunk));
    out.set(encrypted, at);
    at += encrypted.length;
  }
  return out;
}

export async function decryptFile(stream: FileStream, encrypted: Uint8Array): Promise<Uint8Array> {
  async function* one() {
    yield encrypted;
  }
  const parts: Uint8Array[] = [];
  for await (const part of decryptFileStream(stream, one())) parts.push(part);
  return Buffer.concat(parts);
}

/** PUT bytes to a presigned URL; answers the ETag. */
export async function putBytes(url: string, bytes: Uint8Array): Promise<string> {
  const response = await fetch(url, { method: "PUT", body: bytes });
  if (!response.ok) throw new Error(`PUT to the bucket answered ${response.status}: ${await response.text()}`);
  return response.headers.get("etag") ?? "";
}

export function startUpload(who: Who, conversationId: number, body: { size: number; thumb_size?: number }) {
  return http<Upload>("POST", `/api/conversations/${conversationId}/attachments`, { token: who.api_token, body });
}

export function completeUpload(who: Who, conversationId: number, id: number, etags?: string[]) {
  return http<{ id: number; size: number; state: string }>("POST", `/api/conversations/${conversationId}/attachments/${id}/complete`, {
    token: who.api_token,
    body: etags ? { etags } : {},
  });
}

/**
 * Encrypts `data` with a new file stream and uploads it (multipart when the server says so),
 * with an encrypted thumbnail when `thumb` is given. Answers the attachment id and the stream.
 */
export async function uploadFile(who: Who, conversationId: number, data: Uint8Array, thumb?: Uint8Array) {
  const stream = await newFileStream();
  const encrypted = await encryptFile(stream, data);
  const thumbEnvelope = thumb ? await sealThumbnail(stream.key, thumb) : undefined;
  const thumbBytes = thumbEnvelope ? new TextEncoder().encode(thumbEnvelope) : undefined;
  const started = await startUpload(who, conversationId, { size: encrypted.length, ...(thumbBytes ? { thumb_size: thumbBytes.length } : {}) });
  if (started.status !== 200) throw new Error(`starting an upload failed: ${started.status} ${JSON.stringify(started.body)}`);
  const { id, parts, part_size, multipart, thumb_url } = started.body;
  const etags: string[] = [];
  for (const part of parts) etags.push(await putBytes(part.url, encrypted.subarray((part.n - 1) * part_size, part.n * part_size)));
  if (thumb_url && thumbBytes) await putBytes(thumb_url, thumbBytes);
  const completed = await completeUpload(who, conversationId, id, multipart ? etags : undefined);
  if (completed.status !== 200) throw new Error(`completing an upload failed: ${completed.status} ${JSON.stringify(completed.body)}`);
  return { id, stream, encrypted };
}

/** GET the attachment's download URL and then its bytes. */
export async function downloadFile(who: Who, conversationId: number, id: number, thumb = false): Promise<{ status: number; bytes?: Uint8Array }> {
  const reply = await http<{ url: string }>("GET", `/api/conversations/${conversationId}/attachments/${id}${thumb ? "?thumb=1" : ""}`, { token: who.api_token });
  if (reply.status !== 200) return { status: reply.status };
  const response = await fetch(reply.body.url);
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}
