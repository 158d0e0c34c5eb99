import type { ReactNode } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { guestPath, isGuest } from "../lib/guest";
import type { LoginState } from "../lib/login-state";
import { isInstanceAdmin, useSession } from "../lib/session";
import { NotFoundPage } from "./not-found-page";

/** Everything but /login and /setup needs a session; without one, go to login and come back. */
export function RequireAuth() {
  const session = useSession();
  const { pathname, search, hash } = useLocation();
  if (!session) {
    const state: LoginState = { from: { pathname, search, hash } };
    return <Navigate to="/login" replace state={state} />;
  }
  // Spec 000 §6: a pickup's guest sees that pickup's conversation and nothing else.
  const onlyPath = isGuest(session) ? guestPath() : null;
  if (onlyPath && pathname !== onlyPath) return <Navigate to={onlyPath} replace />;
  return <Outlet />;
}

/** Administration exists only for instance admins; everyone else sees the not-found page. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useSession();
  return isInstanceAdmin(session) ? children : <NotFoundPage />;
}
