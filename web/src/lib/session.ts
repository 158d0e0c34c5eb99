import type { Session } from "@sealwork/contracts";
import { useRef, useSyncExternalStore } from "react";
import { STORAGE_PREFIX } from "./storage";

export type { Session };

/**
 * Where the API token lives (issue 11, item 8; docs/protocol.md §12, "The API token"): in this
 * module's memory, with a copy in this tab's sessionStorage so that a reload keeps the user
 * signed in. Not in localStorage: that would hand the token to every tab and window of the
 * origin and keep it on disk after the browser closes. Each tab signs in on its own (its keys are
 * in its memory only anyway); a logout in one tab ends the others (SIGNED_OUT_KEY).
 */
const SESSION_KEY = `${STORAGE_PREFIX}session`;
/** Written and removed at once: the storage event tells the other tabs to end their sessions too. */
const SIGNED_OUT_KEY = `${STORAGE_PREFIX}signed-out`;

type Listener = () => void;
const listeners = new Set<Listener>();

/** Whether this runs in a page (not in a unit test that imports a module reading the session). */
const inPage = typeof window !== "undefined";

function read(): Session | null {
  if (!inPage) return null;
  // Versions before issue 11 kept the session in localStorage: move it to this tab, once.
  const legacy = localStorage.getItem(SESSION_KEY);
  if (legacy !== null) {
    localStorage.removeItem(SESSION_KEY);
    if (sessionStorage.getItem(SESSION_KEY) === null) sessionStorage.setItem(SESSION_KEY, legacy);
  }
  const raw = sessionStorage.getItem(SESSION_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.api_token === "string" && typeof parsed.id === "number" ? (parsed as Session) : null;
  } catch (error) {
    // A damaged entry is not a session; drop it so the user can sign in again.
    console.warn("Discarding an unreadable session", error);
    sessionStorage.removeItem(SESSION_KEY);
    return null;
  }
}

// Cached so useSyncExternalStore sees a stable snapshot between changes.
let current: Session | null = read();

function emit(): void {
  for (const listener of listeners) listener();
}

export function getSession(): Session | null {
  return current;
}

export function setSession(session: Session): void {
  current = session;
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  emit();
}

/** Merges changed profile fields (for example a new name) into the stored session. */
export function updateSession(changes: Partial<Omit<Session, "api_token" | "id">>): void {
  if (current) setSession({ ...current, ...changes });
}

/**
 * Ends the session. `notify: false` leaves the screen as it is, for callers that load a new page
 * next: a client-side redirect to the login screen would otherwise race that page load.
 */
export function clearSession({ notify = true, everywhere = true }: { notify?: boolean; everywhere?: boolean } = {}): void {
  if (current === null && sessionStorage.getItem(SESSION_KEY) === null) return;
  current = null;
  sessionStorage.removeItem(SESSION_KEY);
  if (everywhere) {
    // Other tabs of the app see the event and end their sessions; nothing stays stored.
    localStorage.setItem(SIGNED_OUT_KEY, String(Date.now()));
    localStorage.removeItem(SIGNED_OUT_KEY);
  }
  if (notify) emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// A logout in another tab (or "Wipe and logout" clearing everything) ends this tab's session too.
if (inPage) {
  window.addEventListener("storage", (event) => {
    const signedOut = (event.key === SIGNED_OUT_KEY && event.newValue !== null) || event.key === null;
    if (signedOut && current !== null) clearSession({ everywhere: false });
  });
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession);
}

/** For screens behind the sign-in guard, where a missing session is a programming error. */
export function useRequiredSession(): Session {
  const session = useSession();
  // While a sign-out redirects to the login screen, the page still renders once more.
  const last = useRef(session);
  if (session) last.current = session;
  if (!last.current) throw new Error("useRequiredSession used outside a signed-in route");
  return last.current;
}

export function isInstanceAdmin(session: Session | null): boolean {
  return Boolean(session && (session.hasAdminRole || session.hasSuperAdminRole));
}
