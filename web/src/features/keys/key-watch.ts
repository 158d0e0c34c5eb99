import { useEffect } from "react";
import { dropKeysIfMoved } from "../../lib/keypairs";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/** At most one look per this many milliseconds, however often the window gains focus. */
const WATCH_EVERY_MS = 5_000;

/**
 * Whether the key held in this page is still the account's current one: looked up when the page
 * becomes visible or gains focus (a user comes back to a tab or a browser after renewing their key
 * elsewhere, or after an administrator reset it). Another current key drops the held ones and the
 * key popup asks for the code (docs/protocol.md §12, "Other browsers"). The server's answer only
 * ever makes this page forget a key, never trust one: the popup then checks the new key as at
 * any unlock. A page that stays in front is caught by the server instead, which refuses what the
 * old key signs (`sender_key_stale`, lib/api.ts).
 */
export function useKeyWatch(held: UnlockedKeys | null): void {
  const keyId = held?.keyId;
  useEffect(() => {
    if (keyId === undefined) return;
    // The first focus after mounting looks at once (a page mounts its keys just before it may be told).
    let last = 0;
    // (A window that gains focus is in front, whatever its visibility state says: headless
    // windows, and some window managers, keep an occluded or background state a while after.)
    const look = (event: Event) => {
      if ((event.type !== "focus" && document.visibilityState !== "visible") || Date.now() - last < WATCH_EVERY_MS) return;
      last = Date.now();
      // (A key loaded meanwhile is not dropped. A failed look changes nothing: the next focus looks again.)
      dropKeysIfMoved(keyId).catch((error: unknown) => console.warn("Could not check whether the key is current", error));
    };
    window.addEventListener("focus", look);
    document.addEventListener("visibilitychange", look);
    return () => {
      window.removeEventListener("focus", look);
      document.removeEventListener("visibilitychange", look);
    };
  }, [keyId]);
}
