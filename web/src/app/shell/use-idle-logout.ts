import { useEffect } from "react";
import { logoutAndReload } from "../../lib/logout";
import { STORAGE_PREFIX } from "../../lib/storage";

const ACTIVITY_KEY = `${STORAGE_PREFIX}last-activity`;
const EVENTS = ["pointerdown", "pointermove", "keydown", "wheel", "touchstart", "scroll"] as const;
/** Activity is shared with other tabs at most this often, so typing does not hammer storage. */
const SHARE_EVERY_MS = 5_000;

/**
 * Spec 000 §2: after the instance's idleTimeout seconds without input (0 means never) the user
 * is logged out and the page reloads. Activity in any tab of the app counts.
 */
export function useIdleLogout(timeoutSeconds: number): void {
  useEffect(() => {
    if (!(timeoutSeconds > 0)) return;
    const timeoutMs = timeoutSeconds * 1000;
    let last = Date.now();
    let shared = 0;

    const touch = () => {
      last = Date.now();
      if (last - shared >= SHARE_EVERY_MS) {
        shared = last;
        localStorage.setItem(ACTIVITY_KEY, String(last));
      }
    };
    touch();

    const check = () => {
      const elsewhere = Number(localStorage.getItem(ACTIVITY_KEY)) || 0;
      if (Date.now() - Math.max(last, elsewhere) < timeoutMs) return;
      window.clearInterval(timer);
      // Reloading the current page lets the login screen bring the user back here.
      void logoutAndReload("logout", null);
    };
    // Checked on an interval rather than one timeout, so a laptop waking from sleep logs out at once.
    const timer = window.setInterval(check, Math.min(timeoutMs, 1000));

    for (const event of EVENTS) window.addEventListener(event, touch, { passive: true, capture: true });
    return () => {
      window.clearInterval(timer);
      for (const event of EVENTS) window.removeEventListener(event, touch, { capture: true });
    };
  }, [timeoutSeconds]);
}
