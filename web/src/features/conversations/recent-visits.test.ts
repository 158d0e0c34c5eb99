import { describe, expect, it } from "vitest";
import { MAX_RECENT, withVisit } from "./recent-visits";

describe("the Recently list", () => {
  it("puts the conversation visited last first, once", () => {
    expect(withVisit([], 7)).toEqual([7]);
    expect(withVisit([3, 5], 7)).toEqual([7, 3, 5]);
    expect(withVisit([3, 7, 5], 7)).toEqual([7, 3, 5]);
    expect(withVisit([7, 3], 7)).toEqual([7, 3]);
  });

  it(`keeps the ${MAX_RECENT} visited last`, () => {
    const full = [1, 2, 3, 4, 5].slice(0, MAX_RECENT);
    expect(withVisit(full, 9)).toEqual([9, ...full.slice(0, MAX_RECENT - 1)]);
    expect(withVisit(full, 9)).toHaveLength(MAX_RECENT);
  });
});
