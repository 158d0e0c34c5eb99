import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { GroupKeyWaitingError } from "./key-waiting";
import { WRAP_WAIT_FIRST_MS, WRAP_WAIT_LATER_MS, wrapWaitDelay, wrapWaitQuery } from "./wrap-wait";

// Texts are their keys.
vi.mock("../../../lib/i18n", () => ({ i18next: { t: (key: string) => key }, addTranslations: () => undefined }));
const answers: unknown[] = [];
const asked: string[] = [];
vi.mock("../../../lib/api", () => ({
  call: async (route: string) => {
    asked.push(route);
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  },
  isApiError: (error: unknown, status?: number) => (error as { status?: number } | null)?.status === status,
}));

/** A page's part whose load waits for group `groupId`'s key once (then loads), and how often it loaded. */
async function waitingPart(client: QueryClient, groupId: number, name: string) {
  let loads = 0;
  const observer = new QueryObserver(client, {
    queryKey: ["part", name],
    queryFn: async () => {
      loads += 1;
      if (loads === 1) throw new GroupKeyWaitingError(groupId);
      return "open";
    },
    retry: false,
  });
  const stop = observer.subscribe(() => undefined);
  await vi.waitFor(() => expect(observer.getCurrentResult().error).toBeInstanceOf(GroupKeyWaitingError));
  return { loads: () => loads, result: () => observer.getCurrentResult(), stop };
}

/** The one look of a page waiting for its group key: its own wraps only; the waiting parts load again once the current epoch's is there. */
describe("wrapWaitQuery", () => {
  it("looks every 3 s in the first minute, every 10 s after", () => {
    expect(wrapWaitDelay(1_000, 1_000)).toBe(WRAP_WAIT_FIRST_MS);
    expect(wrapWaitDelay(1_000, 60_999)).toBe(WRAP_WAIT_FIRST_MS);
    expect(wrapWaitDelay(1_000, 61_000)).toBe(WRAP_WAIT_LATER_MS);
  });

  it("asks only GET …/wraps; loads the waiting parts of this group again once a copy of the current epoch is there, not before, not another group's", async () => {
    const client = new QueryClient();
    const [members, drive, other] = await Promise.all([waitingPart(client, 5, "members"), waitingPart(client, 5, "drive"), waitingPart(client, 6, "other")]);
    const wait = new QueryObserver(client, wrapWaitQuery(5));
    const stop = wait.subscribe(() => undefined);
    // No copy yet; a copy of an older epoch only; a network failure: nothing loads again.
    answers.push({ epoch: 1, wraps: [] }, { epoch: 1, wraps: [{ epoch: 0, wrap: {}, sealer_id: 1 }] }, new Error("offline"));
    for (let i = 0; i < 3; i++) await wait.refetch();
    expect([members.loads(), drive.loads()]).toEqual([1, 1]);
    answers.push({ epoch: 1, wraps: [{ epoch: 0, wrap: {}, sealer_id: 1 }, { epoch: 1, wrap: {}, sealer_id: 1 }] });
    await wait.refetch();
    expect([members.loads(), drive.loads(), other.loads()]).toEqual([2, 2, 1]);
    expect([members.result().data, drive.result().data]).toEqual(["open", "open"]);
    expect(new Set(asked)).toEqual(new Set(["GET /api/groups/{id}/wraps"]));
    expect(wait.getCurrentResult().status).toBe("success");
    for (const s of [stop, members.stop, drive.stop, other.stop]) s();
  });

  it("a 404 ends it (the page's own load says why)", async () => {
    const client = new QueryClient();
    const wait = new QueryObserver(client, wrapWaitQuery(7));
    const stop = wait.subscribe(() => undefined);
    answers.push(Object.assign(new Error("gone"), { status: 404 }));
    await wait.refetch();
    const every = wrapWaitQuery(7).refetchInterval;
    const query = client.getQueryCache().find({ queryKey: wrapWaitQuery(7).queryKey })!;
    expect(typeof every === "function" ? every(query as never) : every).toBe(false);
    stop();
  });
});
