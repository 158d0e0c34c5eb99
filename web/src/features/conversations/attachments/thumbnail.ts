/** Thumbnails are 200 px on their longer side (spec: encrypted 200 px thumbnails for images). */
export const THUMB_PX = 200;

/** A JPEG thumbnail of an image file, or null when the browser cannot decode it. */
export async function makeThumbnail(file: Blob): Promise<Uint8Array | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    // Not an image this browser can decode: the attachment simply has no thumbnail.
    return null;
  }
  const scale = Math.min(1, THUMB_PX / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.8 });
  return new Uint8Array(await blob.arrayBuffer());
}
