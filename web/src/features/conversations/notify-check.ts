import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { isGuest } from "../../lib/guest";
import { queryKeys } from "../../lib/query-keys";
import { useSession } from "../../lib/session";
import { NOTIFY_EVERY_MS } from "./poll-backoff";

/** GET /api/notify/check?previous=: undefined (204) when nothing happened after `previous`. */
export function checkNotifications(previous: number, signal?: AbortSignal) {
  return call("GET /api/notify/check", { query: { previous }, signal });
}

/**
 * The notification check (spec 000 §4) as a query whose data is the mark: the newest event seen.
 * It runs at once and then every 10 s; news refreshes the conversation lists (and with them the
 * unread dots of the list, the top bar and the left menu). It stops after an error, as the spec
 * says (the query fails and is not retried); a reload starts it again.
 */
export const notifyCheckQuery = (uid: number) =>
  queryOptions({
    queryKey: queryKeys.notifyCheck(uid),
    queryFn: async ({ client, queryKey, signal }): Promise<{ previous: number }> => {
      const previous = client.getQueryData<{ previous: number }>(queryKey)?.previous ?? null;
      const news = await checkNotifications(previous ?? 0, signal);
      if (!news) return { previous: previous ?? 0 };
      // The first answer only sets the mark: the list was just loaded anyway.
      if (previous !== null) void client.invalidateQueries({ queryKey: queryKeys.conversations.lists() });
      return { previous: news.new_highest };
    },
    staleTime: Infinity,
    retry: false,
    refetchInterval: (query) => (query.state.status === "error" ? false : NOTIFY_EVERY_MS),
    refetchIntervalInBackground: true,
  });

/** Runs the check while `enabled` (the instance has conversations on). */
export function useNotifyCheck(enabled: boolean): void {
  const session = useSession();
  // Members only: a pickup's guest has no list to refresh.
  const uid = session && !isGuest(session) ? session.id : 0;
  useQuery({ ...notifyCheckQuery(uid), enabled: enabled && uid !== 0 });
}
