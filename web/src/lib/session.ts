import type { Session } from "@sealwork/contracts";
import { useRef, useSyncExternalStore } from "react";
import { STORAGE_PREFIX } from "./storage";

export type { Session };

const SESSION_KEY = `${STORAGE_PREFIX}session`;

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): Session | null {
  const raw = localStorage.getItem(SESSION_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.api_token === "string" && typeof parsed.id === "number" ? (parsed as Session) : null;
  } catch (error) {
    // A damaged entry is not a session; drop it so the user can sign in again.
    console.warn("Discarding an unreadable session", error);
    localStorage.removeItem(SESSION_KEY);
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
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
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
export function clearSession({ notify = true }: { notify?: boolean } = {}): void {
  if (current === null && localStorage.getItem(SESSION_KEY) === null) return;
  current = null;
  localStorage.removeItem(SESSION_KEY);
  if (notify) emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab logging in or out changes this tab's session too.
window.addEventListener("storage", (event) => {
  if (event.key !== SESSION_KEY && event.key !== null) return;
  current = read();
  emit();
});

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
