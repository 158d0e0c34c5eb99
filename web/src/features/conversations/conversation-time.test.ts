import { describe, expect, it } from "vitest";
import { relativeTime } from "./conversation-time";

describe("conversation times", () => {
  const now = new Date(2024, 0, 10, 12, 0, 0).getTime();
  const seconds = (d: Date) => d.getTime() / 1000;

  it("says how long ago within a week, in German for the German interface", () => {
    expect(relativeTime(seconds(new Date(2024, 0, 10, 11, 59, 50)), "de", now)).toBe("jetzt");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 11, 55, 0)), "de", now)).toBe("vor 5 Minuten");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 9, 0, 0)), "de", now)).toBe("vor 3 Stunden");
    expect(relativeTime(seconds(new Date(2024, 0, 9, 12, 0, 0)), "de", now)).toBe("gestern");
  });

  it("in English for the English interface", () => {
    expect(relativeTime(seconds(new Date(2024, 0, 10, 11, 59, 50)), "en", now)).toBe("now");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 11, 56, 0)), "en", now)).toBe("4 minutes ago");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 9, 0, 0)), "en", now)).toBe("3 hours ago");
    expect(relativeTime(seconds(new Date(2024, 0, 9, 12, 0, 0)), "en", now)).toBe("yesterday");
  });

  it("reads a time a little ahead of this clock as now", () => {
    expect(relativeTime(seconds(new Date(2024, 0, 10, 12, 1, 30)), "en", now)).toBe("now");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 12, 1, 30)), "de", now)).toBe("jetzt");
  });

  it("shows the date beyond a week, Swiss in either language", () => {
    expect(relativeTime(seconds(new Date(2023, 11, 24, 8, 0, 0)), "de", now)).toBe("24.12.2023");
    expect(relativeTime(seconds(new Date(2023, 11, 24, 8, 0, 0)), "en", now)).toBe("24.12.2023");
  });
});
