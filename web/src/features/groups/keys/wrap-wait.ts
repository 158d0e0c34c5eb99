import { type Query, type QueryCache, notifyManager, queryOptions, useQueries, useQueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { call, isApiError } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import { GroupKeyWaitingError } from "./key-waiting";

/** While a page waits for its key: a look every 3 s in its first minute, every 10 s after; none while the tab is hidden. */
export const WRAP_WAIT_FIRST_MS = 3_000;
export const WRAP_WAIT_LATER_MS = 10_000;
export const WRAP_WAIT_SLOWER_AFTER_MS = 60_000;

/** The wait's state: when it began (the back-off counts from there). */
export interface WrapWaitState {
  since: number;
}

/** The wait before the next look, for a wait that began at `since`. */
export const wrapWaitDelay = (since: number, now = Date.now()): number => (now - since < WRAP_WAIT_SLOWER_AFTER_MS ? WRAP_WAIT_FIRST_MS : WRAP_WAIT_LATER_MS);

/**
 * GET /api/groups/{id}/wraps: whether one's copy of the group's current epoch is there now (the
 * route the ring reads its copy from; one's own copies only, not the log, records or identities).
 * It only says when to load again: the ring verifies what it then gets.
 */
export async function wrapArrived(groupId: number, signal?: AbortSignal): Promise<boolean> {
  const mine = await call("GET /api/groups/{id}/wraps", { params: { id: groupId }, signal });
  return mine.wraps.some((w) => w.epoch === mine.epoch);
}

/** The queries of a page that wait for this group's key (their load failed with GroupKeyWaitingError). */
export const waitsForKey = (groupId: number) => (query: Query) => query.state.error instanceof GroupKeyWaitingError && query.state.error.groupId === groupId;

/**
 * The one look of a page that waits for a group's key (the members page's ring, the drive, the
 * records, the group's conversation: all of them at once), in place of each loading and verifying
 * the whole ring again every few seconds: a look at one's wraps (wrapArrived) every
 * WRAP_WAIT_FIRST_MS, every WRAP_WAIT_LATER_MS after the first minute, not in a hidden tab (the
 * interval's default); once the copy is there the waiting queries load again (their own ring,
 * verified afresh). A network failure is a look that found nothing; a 403 or 404 ends it (the
 * page's own load says why). It goes with the last page that waits (gcTime 0).
 */
export const wrapWaitQuery = (groupId: number) =>
  queryOptions({
    queryKey: queryKeys.groups.wrapWait(groupId),
    queryFn: async ({ client, queryKey, signal }): Promise<WrapWaitState> => {
      const state = client.getQueryData<WrapWaitState>(queryKey) ?? { since: Date.now() };
      let there = false;
      try {
        there = await wrapArrived(groupId, signal);
      } catch (error) {
        if (signal.aborted || isApiError(error, 403) || isApiError(error, 404)) throw error;
      }
      if (there) await client.invalidateQueries({ predicate: waitsForKey(groupId) });
      return state;
    },
    initialData: () => ({ since: Date.now() }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.status === "error" ? false : wrapWaitDelay(query.state.data?.since ?? Date.now())),
  });

/** The groups some query of the page waits for the key of, as "3,17" (a value that stays the same while they do). */
function waitingGroups(cache: QueryCache): string {
  const ids = new Set(cache.findAll({ predicate: (q) => q.state.error instanceof GroupKeyWaitingError }).map((q) => (q.state.error as GroupKeyWaitingError).groupId));
  return [...ids].sort((a, b) => a - b).join(",");
}

/**
 * Mounted with the signed-in shell: for each group some query on the page waits for the key of,
 * one wrapWaitQuery (one look however many parts of the page wait), gone once none does.
 */
export function useGroupKeyWaits(): void {
  const cache = useQueryClient().getQueryCache();
  const waiting = useSyncExternalStore(
    useCallback((changed: () => void) => cache.subscribe(notifyManager.batchCalls(changed)), [cache]),
    () => waitingGroups(cache),
  );
  useQueries({ queries: waiting ? waiting.split(",").map((id) => wrapWaitQuery(Number(id))) : [] });
}
