import { SELECTOR_CHUNK, SELECTOR_FIRST } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { FIRST_CHUNK, MORE_CHUNK, nextChunk } from "./chunks";

describe("the person selector's chunks (spec 000 §9)", () => {
  it("asks for 50 first, then 500 at a time after what it has", () => {
    expect(nextChunk(0)).toEqual({ offset: 0, limit: 50 });
    expect(nextChunk(50)).toEqual({ offset: 50, limit: 500 });
    expect(nextChunk(550)).toEqual({ offset: 550, limit: 500 });
  });

  it("agrees with the server's limits", () => {
    expect(FIRST_CHUNK).toBe(SELECTOR_FIRST);
    expect(MORE_CHUNK).toBe(SELECTOR_CHUNK);
  });
});
