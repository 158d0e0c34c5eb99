import { describe, expect, it, vi } from "vitest";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { ringCache } from "./ring-cache";

interface TestRing {
  log: { head: { seq: number } };
  name: string;
}
const ring = (seq: number, name = `at ${seq}`): TestRing => ({ log: { head: { seq } }, name });
const holder = (uid: number) => ({ uid }) as unknown as UnlockedKeys;

describe("ringCache", () => {
  it("keeps a verified ring per id for the keys that opened it, and not a failure", async () => {
    const cache = ringCache<TestRing>();
    const me = holder(1);
    const load = vi.fn(async () => ring(3));
    const first = await cache.open(7, me, load);
    expect(await cache.open(7, me, load)).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    // Other keys (a logout, a moved key) start afresh.
    await cache.open(7, holder(2), load);
    expect(load).toHaveBeenCalledTimes(2);
    // A failure is not kept: the next open verifies again.
    await expect(cache.open(8, holder(2), () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await Promise.resolve();
    expect(cache.has(8)).toBe(false);
    expect((await cache.open(8, holder(2), async () => ring(0, "again"))).name).toBe("again");
  });

  it("forgets a ring behind the head seq the server names, once, and keeps one that is not", async () => {
    const cache = ringCache<TestRing>();
    const me = holder(1);
    await cache.open(7, me, async () => ring(3));
    expect(await cache.behind(7, 3)).toBe(false);
    expect(await cache.behind(7, 2)).toBe(false);
    expect(cache.has(7)).toBe(true);
    expect(await cache.behind(7, 4)).toBe(true);
    expect(cache.has(7)).toBe(false);
    // Nothing held: nothing to forget (the next open verifies anyway).
    expect(await cache.behind(7, 9)).toBe(false);
    expect(await cache.behind(9, 1)).toBe(false);
  });
});
