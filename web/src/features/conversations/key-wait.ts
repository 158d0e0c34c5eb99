import { type QueryKey, queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { isApiError } from "../../lib/api";
import { dropKeysIfMoved } from "../../lib/keypairs";
import { getUnlockedKeys } from "../../lib/unlocked-keys";
import { POLL_START_MS, POLL_TIMEOUT_MS, nextPollDelay } from "./poll-backoff";

/** The check's state: the wait before the next one, and whether the key is there. */
export interface KeyWaitState {
  delay: number;
  arrived: boolean;
}

/**
 * While a page waits for its key because one's own key moved (`key_moved`, docs/protocol.md §14.3):
 * one cheap look each time whether an admin has renewed it since (`arrived`: the conversation's log
 * is at a later epoch, one's wraps of the group hold a later one), with the message poll's back-off
 * (spec 000 §4, §9: 5000 ms, × 1.1 after each look that finds nothing or fails, at most 20000 ms).
 * The first look is 5000 ms after the page showed the wait (initial data); it stops once the key is
 * there, on a 403 or 404 (the page's own load says why), and with the page (gcTime 0, no observer).
 * It only says when to open again: the page's own load verifies what the server serves.
 */
export const keyWaitQuery = (queryKey: QueryKey, arrived: (signal: AbortSignal) => Promise<boolean>) =>
  queryOptions({
    queryKey,
    queryFn: async ({ client, queryKey, signal }): Promise<KeyWaitState> => {
      const last = client.getQueryData<KeyWaitState>(queryKey)?.delay ?? POLL_START_MS;
      let there = false;
      try {
        there = await arrived(AbortSignal.any([signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]));
      } catch (error) {
        if (signal.aborted || isApiError(error, 403) || isApiError(error, 404)) throw error;
      }
      return { delay: nextPollDelay(last, false), arrived: there };
    },
    initialData: { delay: POLL_START_MS, arrived: false },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.status === "error" || query.state.data?.arrived ? false : (query.state.data?.delay ?? POLL_START_MS)),
    refetchIntervalInBackground: true,
  });

/**
 * keyWaitQuery while `waiting` (the page shows that it waits for its key; `queryKey` names the epoch
 * refused, so a refusal of a later one starts afresh); once the key is there, `onArrived` opens the
 * page again (its own query, fetched afresh), with nobody clicking.
 *
 * The wait starts with one look at the account's current key: the record may name a key of one's
 * own that is newer than the one this page holds (renewed in another browser while this tab was
 * open, and the log's next epoch made for it). Then nothing is to wait for but this page: its keys
 * go and the key popup asks for the code, and what waits in a message bar is back after it
 * (drafts.ts). The server's answer only ever makes the page forget a key, never trust one.
 */
export function useKeyWait(queryKey: QueryKey, waiting: boolean, arrived: (signal: AbortSignal) => Promise<boolean>, onArrived: () => void): void {
  const onArrivedRef = useRef(onArrived);
  onArrivedRef.current = onArrived;
  useEffect(() => {
    const held = waiting ? getUnlockedKeys()?.keyId : undefined;
    if (held !== undefined) dropKeysIfMoved(held).catch((error: unknown) => console.warn("Could not check whether the key is current", error));
  }, [waiting]);
  const wait = useQuery({ ...keyWaitQuery(queryKey, arrived), enabled: waiting });
  const there = waiting && wait.data.arrived;
  useEffect(() => {
    if (there) onArrivedRef.current();
  }, [there]);
}
