import { describe, expect, it } from "vitest";
import { POLL_CAP_MS, POLL_START_MS, nextPollDelay } from "./poll-backoff";

describe("message poll back-off (spec 000 §4, §9)", () => {
  it("grows by 1.1 after each quiet poll up to 20000 ms", () => {
    const delays = [POLL_START_MS];
    for (let i = 0; i < 20; i++) delays.push(nextPollDelay(delays.at(-1)!, false));
    expect(delays.slice(0, 5)).toEqual([5000, 5500, 6050, 6655, 7321]);
    expect(delays.at(-1)).toBe(POLL_CAP_MS);
    expect(Math.max(...delays)).toBe(POLL_CAP_MS);
    // Monotonic until the cap.
    for (let i = 1; i < delays.length; i++) expect(delays[i]!).toBeGreaterThanOrEqual(delays[i - 1]!);
  });

  it("resets to 5000 ms on news", () => {
    expect(nextPollDelay(POLL_CAP_MS, true)).toBe(POLL_START_MS);
    expect(nextPollDelay(7321, true)).toBe(POLL_START_MS);
  });
});
