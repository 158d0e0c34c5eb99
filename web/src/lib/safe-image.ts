/**
 * Decrypted bytes a sender chose are never shown as they claim to be (issue 11, item 8). An image
 * is drawn inline only from a Blob whose type this module gives it after looking at the bytes
 * themselves (the magic numbers of PNG, JPEG, GIF and WebP); SVG, HTML or anything else is no
 * image here. Files to save always go out as application/octet-stream, so a same-origin blob URL
 * of an "HTML file" cannot be opened as a page of the app.
 */
export type SafeImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The raster type the bytes really are, or null. */
export function sniffImageType(bytes: Uint8Array): SafeImageType | null {
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 6 && (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a"))) return "image/gif";
  if (bytes.length >= 12 && ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  return null;
}

export class NotAnImageError extends Error {
  constructor() {
    super("the bytes are not a PNG, JPEG, GIF or WebP image");
    this.name = "NotAnImageError";
  }
}

/** A Blob to draw in an <img>, typed by its bytes; anything but a raster image is refused. */
export function safeImageBlob(bytes: Uint8Array): Blob {
  const type = sniffImageType(bytes);
  if (!type) throw new NotAnImageError();
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
}

/** The type every file to save gets, whatever its sender called it. */
export const DOWNLOAD_TYPE = "application/octet-stream";

/** The same bytes as a Blob that no browser renders: only saved, never shown as a page. */
export function downloadableBlob(parts: BlobPart[] | Blob): Blob {
  return new Blob(parts instanceof Blob ? [parts] : parts, { type: DOWNLOAD_TYPE });
}
