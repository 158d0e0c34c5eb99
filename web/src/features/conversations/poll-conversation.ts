import { type QueryKey, queryOptions } from "@tanstack/react-query";
import { call, isApiError } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { ringBehind } from "./conversation-log";
import { isDistributionError } from "./distribution";
import { POLL_START_MS, POLL_TIMEOUT_MS, nextPollDelay } from "./poll-backoff";

/**
 * GET /api/conversations/{id}/poll?largest=: whether there is news: a message newer than `largest`,
 * or a membership log further on than the one verified here (a change of people or admins with no
 * message after it, which the news' load then verifies).
 */
export async function pollConversation(id: number, largest: number, signal: AbortSignal): Promise<boolean> {
  const reply = await call("GET /api/conversations/{id}/poll", { params: { id }, query: { largest }, signal });
  if (reply.log_seq !== undefined && (await ringBehind(id, reply.log_seq))) return true;
  return reply.has_new;
}

/** The poll's state: the wait before the next poll. */
export interface PollState {
  delay: number;
}

export interface PollSource {
  /** The newest message id held. */
  largest: () => number;
  /** Loads the news; a failure here still counts as news for the back-off. */
  loadNews: () => Promise<void>;
}

/**
 * The message poll as a query (spec 000 §4, §9): each run polls once and answers the wait before
 * the next (5000 ms, × 1.1 after a quiet poll or an error, at most 20000 ms, 5000 ms again on
 * news), which `refetchInterval` reads, so the next poll starts that long after this one ended.
 * The first waits 5000 ms after the screen opened (initial data). A 403 or 404 ends it: the query
 * fails, and the screen says why; so does a refusal of the conversation's keys (DistributionError). Not retried, and it keeps going in a background tab, as before.
 */
export const conversationPollQuery = (id: number, source: PollSource) =>
  messagePollQuery(queryKeys.conversations.poll(id), (largest, signal) => pollConversation(id, largest, signal), source);

/** Any message poll (a conversation's, a group's): `check` answers whether a message newer than `largest` exists; it gets 4 s. */
export const messagePollQuery = (queryKey: QueryKey, check: (largest: number, signal: AbortSignal) => Promise<boolean>, source: PollSource) =>
  queryOptions({
    queryKey,
    queryFn: async ({ client, queryKey, signal }): Promise<PollState> => {
      const last = client.getQueryData<PollState>(queryKey)?.delay ?? POLL_START_MS;
      let news = false;
      try {
        news = await check(source.largest(), AbortSignal.any([signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]));
        if (news) await source.loadNews();
      } catch (error) {
        // A refusal of the keys (a fork a new message's log head shows) ends it too: the screen shows the warning.
        if (signal.aborted || isApiError(error, 403) || isApiError(error, 404) || isDistributionError(error)) throw error;
      }
      return { delay: nextPollDelay(last, news) };
    },
    initialData: { delay: POLL_START_MS },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.status === "error" ? false : (query.state.data?.delay ?? POLL_START_MS)),
    refetchIntervalInBackground: true,
  });
