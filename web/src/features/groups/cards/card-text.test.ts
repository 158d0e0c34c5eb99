import { describe, expect, it } from "vitest";
import { SWIPE_PIXELS, firstCharacters, isCut, nearIndexes, swipeStep, wrapIndex } from "./card-text";

describe("card previews and movement", () => {
  it("cuts a preview by characters, never inside an emoji", () => {
    expect(firstCharacters("abcdef", 3)).toBe("abc");
    expect(firstCharacters("ab", 255)).toBe("ab");
    expect(firstCharacters("😀😀😀", 2)).toBe("😀😀");
    expect(firstCharacters("x".repeat(300), 255)).toHaveLength(255);
    expect(isCut("x".repeat(255), 255)).toBe(false);
    expect(isCut("x".repeat(256), 255)).toBe(true);
    expect(isCut("😀".repeat(255), 255)).toBe(false);
  });

  it("wraps the index around both ends", () => {
    expect(wrapIndex(0, 1, 3)).toBe(1);
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(0, -1, 1)).toBe(0);
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });

  it("names the shown item and its neighbours once each", () => {
    expect(nearIndexes(0, 5)).toEqual([0, 1, 4]);
    expect(nearIndexes(1, 2)).toEqual([1, 0]);
    expect(nearIndexes(0, 1)).toEqual([0]);
    expect(nearIndexes(0, 0)).toEqual([]);
  });

  it("reads a drag as a step only when it is long enough", () => {
    expect(swipeStep(-SWIPE_PIXELS)).toBe(1);
    expect(swipeStep(SWIPE_PIXELS + 10)).toBe(-1);
    expect(swipeStep(10)).toBe(0);
    expect(swipeStep(-10)).toBe(0);
  });
});
