import { decrypt } from "../aead";
import type { Bytes } from "../bytes";
import { type AeadEnvelope, parseEnvelope } from "../envelope";
import type { Key } from "../primitives";
import { encryptRecord } from "./place";

/**
 * An attachment's thumbnail (docs/protocol.md, Files in chunks): the image bytes `encrypt`ed under
 * the file's own key (`FileStream.key`) with the associated data `thumbnail`. The file key is
 * random per file, so a thumbnail cannot be swapped with another file's; the bucket object is the
 * envelope's text.
 */
export const THUMBNAIL_AAD = "thumbnail";

/** Answers the envelope's text (what goes to the bucket, as UTF-8). */
export function sealThumbnail(fileKey: Key, image: Uint8Array): Promise<string> {
  return sealThumbnailWith(fileKey, image, undefined);
}

/** sealThumbnail with the nonce supplied: for known-answer tests only. */
export function sealThumbnailWith(fileKey: Key, image: Uint8Array, nonce: Uint8Array | undefined): Promise<string> {
  return encryptRecord(fileKey, image, THUMBNAIL_AAD, nonce);
}

/** The image bytes. Another file's key or any change: decrypt_failed. */
export async function openThumbnail(fileKey: Key, envelope: AeadEnvelope | string): Promise<Bytes> {
  return decrypt(fileKey, parseEnvelope(envelope, "aead"), { aad: THUMBNAIL_AAD });
}
