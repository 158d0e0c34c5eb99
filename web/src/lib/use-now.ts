import { useSyncExternalStore } from "react";

/**
 * The time, for things that say how long ago ("5 minutes ago"): a snapshot rounded down to
 * `TICK_MS` that moves on every tick while anything on the page shows it, so relative times
 * refresh while a page stays open. One interval serves every subscriber.
 */
export const TICK_MS = 15_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const notify of listeners) notify();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Stable within a tick, so React sees the same snapshot until the tick changes it. */
const snapshot = () => Math.floor(Date.now() / TICK_MS) * TICK_MS;

export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot);
}
