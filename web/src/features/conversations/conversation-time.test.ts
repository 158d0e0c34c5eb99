import { describe, expect, it } from "vitest";
import { relativeTime } from "./conversation-time";

describe("conversation times (de-CH)", () => {
  const now = new Date(2024, 0, 10, 12, 0, 0).getTime();
  const seconds = (d: Date) => d.getTime() / 1000;

  it("says how long ago within a week", () => {
    expect(relativeTime(seconds(new Date(2024, 0, 10, 11, 59, 50)), now)).toBe("jetzt");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 11, 55, 0)), now)).toBe("vor 5 Minuten");
    expect(relativeTime(seconds(new Date(2024, 0, 10, 9, 0, 0)), now)).toBe("vor 3 Stunden");
    expect(relativeTime(seconds(new Date(2024, 0, 9, 12, 0, 0)), now)).toBe("gestern");
  });

  it("shows the date beyond a week", () => {
    expect(relativeTime(seconds(new Date(2023, 11, 24, 8, 0, 0)), now)).toBe("24.12.2023");
  });
});
