import { describe, expect, it } from "vitest";
import { parseTags } from "./tags";

describe("parseTags", () => {
  it("splits on commas, trims, drops blanks and case-insensitive repeats (the first spelling stays)", () => {
    expect(parseTags(" Legal, q1 ,, Q1,legal ,  ,Verträge")).toEqual(["Legal", "q1", "Verträge"]);
    expect(parseTags("")).toEqual([]);
    expect(parseTags(" , ,")).toEqual([]);
    expect(parseTags("ÄRGER, ärger")).toEqual(["ÄRGER"]);
  });
});
