import { describe, expect, it } from "vitest";
import { formatDate, formatDriveSize, formatFileSize, formatRelative, fromSeconds, wordsLocale } from "./format";

describe("format (de-CH)", () => {
  it("formats dates the Swiss German way", () => {
    expect(formatDate(new Date(2024, 2, 5))).toBe("05.03.2024");
    expect(fromSeconds(1).getTime()).toBe(1000);
  });

  it("says how long ago or ahead", () => {
    const now = new Date(2024, 0, 10, 12, 0, 0);
    expect(formatRelative(new Date(2024, 0, 10, 11, 55, 0), now)).toBe("vor 5 Minuten");
    expect(formatRelative(new Date(2024, 0, 12, 12, 0, 0), now)).toBe("übermorgen");
    expect(formatRelative(now, now)).toBe("jetzt");
  });

  it("says it in the interface's words: German as de-CH, English and anything else as en-GB", () => {
    const now = new Date(2024, 0, 10, 12, 0, 0);
    expect(wordsLocale("de")).toBe("de-CH");
    expect(wordsLocale("de-CH")).toBe("de-CH");
    expect(wordsLocale("en")).toBe("en-GB");
    expect(wordsLocale("fr")).toBe("en-GB");
    expect(formatRelative(new Date(2024, 0, 10, 11, 56, 0), now, wordsLocale("en"))).toBe("4 minutes ago");
    expect(formatRelative(now, now, wordsLocale("en"))).toBe("now");
    expect(formatRelative(new Date(2024, 0, 9, 12, 0, 0), now, wordsLocale("de"))).toBe("gestern");
  });

  it("shows MB above 1048576 bytes, else KB", () => {
    expect(formatFileSize(2048)).toBe("2 KB");
    expect(formatFileSize(3 * 1048576)).toBe("3 MB");
  });

  it("shows a drive file in KB, and in MB from 1000 KB up (spec 001 §9)", () => {
    expect(formatDriveSize(2048)).toBe("2 KB");
    expect(formatDriveSize(999 * 1024)).toBe("999 KB");
    expect(formatDriveSize(1000 * 1024)).toBe("1 MB");
    expect(formatDriveSize(1536 * 1024)).toBe("1.5 MB");
  });
});
