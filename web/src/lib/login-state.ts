/** What the router passes to /login: where the user was going, and why they are here. */
export interface LoginState {
  from?: { pathname: string; search: string; hash: string };
  notice?: "passwordChanged";
}

export function readLoginState(state: unknown): LoginState {
  return typeof state === "object" && state !== null ? (state as LoginState) : {};
}

/** The page to open after login: the one the user wanted, else home. */
export function loginTarget(state: LoginState): string {
  const from = state.from;
  if (!from || from.pathname === "/login" || from.pathname === "/setup") return "/";
  return from.pathname + from.search + from.hash;
}

/**
 * A notice for the next login screen, for sign-outs that happen away from it (a changed
 * password): the sign-in guard, not the caller, does the redirect.
 */
let pendingNotice: LoginState["notice"];

export function setLoginNotice(notice: LoginState["notice"]): void {
  pendingNotice = notice;
}

export function peekLoginNotice(): LoginState["notice"] {
  return pendingNotice;
}

export function clearLoginNotice(): void {
  pendingNotice = undefined;
}
