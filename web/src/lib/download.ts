import { downloadableBlob } from "./safe-image";

/**
 * Offers a blob to the user as a file download (the browser's own save dialog or folder), as
 * application/octet-stream with a download name: it is saved, never shown.
 */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(downloadableBlob(blob));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = "noopener";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The download has started by the time the click returns; give slow browsers a moment.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
