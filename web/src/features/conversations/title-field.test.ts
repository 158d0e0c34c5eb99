import { describe, expect, it } from "vitest";
import { TITLE_MAX, isTitleTooLong } from "./title-field";

describe("a title's limit", () => {
  it(`allows ${TITLE_MAX} characters, counted as people count them, without the spaces around`, () => {
    expect(isTitleTooLong("x".repeat(TITLE_MAX))).toBe(false);
    expect(isTitleTooLong("x".repeat(TITLE_MAX + 1))).toBe(true);
    // An emoji is one character, though two UTF-16 units.
    expect(isTitleTooLong("😀".repeat(TITLE_MAX))).toBe(false);
    expect(isTitleTooLong(`  ${"x".repeat(TITLE_MAX)}  `)).toBe(false);
  });
});
