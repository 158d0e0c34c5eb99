import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { call } from "../../lib/api";
import { isGuest } from "../../lib/guest";
import { useSession } from "../../lib/session";
import { conversationsQuery } from "./list-conversations";
import { NOTIFY_EVERY_MS } from "./poll-backoff";

/** GET /api/notify/check?previous=: undefined (204) when nothing happened after `previous`. */
export function checkNotifications(previous: number, signal?: AbortSignal) {
  return call("GET /api/notify/check", { query: { previous }, signal });
}

/**
 * The notification check (spec 000 §4): every 10 s while signed in; news refreshes the
 * conversation list (and with it the unread dots of the list, the top bar and the left menu).
 * It stops after an error, as the spec says; a reload starts it again.
 */
export function useNotifyCheck(): void {
  const session = useSession();
  const queryClient = useQueryClient();
  // Members only: a pickup's guest has no list to refresh.
  const uid = session && !isGuest(session) ? session.id : undefined;
  useEffect(() => {
    if (uid === undefined) return;
    const controller = new AbortController();
    let previous: number | null = null;
    let timer: number | undefined;
    const tick = async () => {
      try {
        const news = await checkNotifications(previous ?? 0, controller.signal);
        if (news) {
          // The first answer only sets the mark: the list was just loaded anyway.
          if (previous !== null) void queryClient.invalidateQueries({ queryKey: conversationsQuery(uid).queryKey });
          previous = news.new_highest;
        } else {
          previous ??= 0;
        }
      } catch {
        // Stops after an error (spec 000 §4).
        return;
      }
      if (!controller.signal.aborted) timer = window.setTimeout(() => void tick(), NOTIFY_EVERY_MS);
    };
    void tick();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [uid, queryClient]);
}
