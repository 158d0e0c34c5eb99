import { describe, expect, it } from "vitest";
import { DOWNLOAD_TYPE, NotAnImageError, downloadableBlob, safeImageBlob, sniffImageType } from "./safe-image";

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe("images are typed by their bytes, files to save are octet-stream (issue 11, item 8)", () => {
  it("knows PNG, JPEG, GIF and WebP by their magic numbers", () => {
    expect(sniffImageType(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(bytes("GIF89a", [1]))).toBe("image/gif");
    expect(sniffImageType(bytes("GIF87a"))).toBe("image/gif");
    expect(sniffImageType(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("image/webp");
  });

  it("refuses SVG, HTML, truncated headers and anything else, whatever it claims", () => {
    for (const evil of [
      bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      bytes("<!doctype html><script>alert(1)</script>"),
      bytes("<?xml version='1.0'?><svg/>"),
      bytes([0x89], "PN"),
      bytes([0xff, 0xd8]),
      bytes("RIFF", [1, 2, 3, 4], "WAVE"),
      bytes(""),
    ]) {
      expect(sniffImageType(evil)).toBeNull();
      expect(() => safeImageBlob(evil)).toThrow(NotAnImageError);
    }
  });

  it("types an image Blob by its bytes, and every file to save as octet-stream", async () => {
    expect(safeImageBlob(bytes([0xff, 0xd8, 0xff, 0xdb])).type).toBe("image/jpeg");
    const html = new Blob(["<script>alert(1)</script>"], { type: "text/html" });
    const saved = downloadableBlob(html);
    expect(saved.type).toBe(DOWNLOAD_TYPE);
    expect(await saved.text()).toBe("<script>alert(1)</script>");
    expect(downloadableBlob([new Uint8Array([1, 2])]).type).toBe("application/octet-stream");
  });
});
