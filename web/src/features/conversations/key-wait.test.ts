import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { keyWaitQuery } from "./key-wait";
import { POLL_CAP_MS, POLL_START_MS } from "./poll-backoff";

vi.mock("../../lib/api", () => ({ isApiError: (error: unknown, status?: number) => (error as { status?: number } | null)?.status === status }));
vi.mock("../../lib/keypairs", () => ({ dropKeysIfMoved: vi.fn() }));

/** The wait for a moved key's renewal: the message poll's back-off, a failed look counts as quiet, it stops once the key is there or on a 404. */
describe("keyWaitQuery", () => {
  const KEY = ["conversations", "one", 7, "key-wait", 0];
  const interval = (client: QueryClient, options: ReturnType<typeof keyWaitQuery>) => {
    const query = client.getQueryCache().find({ queryKey: KEY })!;
    const every = options.refetchInterval;
    return typeof every === "function" ? every(query as never) : every;
  };

  it("waits 5000 ms first, × 1.1 after each quiet or failed look, at most 20000 ms, and stops once the key is there", async () => {
    const client = new QueryClient();
    const answers: (boolean | Error)[] = [false, new Error("offline"), ...Array<boolean>(20).fill(false), true];
    const options = keyWaitQuery(KEY, async () => {
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return next;
    });
    const observer = new QueryObserver(client, options);
    const stop = observer.subscribe(() => undefined);
    expect(interval(client, options)).toBe(POLL_START_MS);
    const delays: number[] = [];
    while (!client.getQueryData<{ arrived: boolean }>(KEY)?.arrived) {
      await observer.refetch();
      delays.push(client.getQueryData<{ delay: number }>(KEY)!.delay);
    }
    expect(delays.slice(0, 3)).toEqual([5500, 6050, 6655]);
    expect(Math.max(...delays)).toBe(POLL_CAP_MS);
    expect(interval(client, options)).toBe(false);
    stop();
  });

  it("a 404 ends it (the page's own load says why)", async () => {
    const client = new QueryClient();
    const options = keyWaitQuery(KEY, async () => Promise.reject(Object.assign(new Error("gone"), { status: 404 })));
    const observer = new QueryObserver(client, options);
    const stop = observer.subscribe(() => undefined);
    await observer.refetch();
    expect(interval(client, options)).toBe(false);
    stop();
  });
});
