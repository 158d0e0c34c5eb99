import type { ReactNode } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { guestPath, isGuest } from "../lib/guest";
import { type Feature, useFeature } from "../lib/instance";
import type { LoginState } from "../lib/login-state";
import { isInstanceAdmin, useSession } from "../lib/session";
import { NotFoundPage } from "./not-found-page";
import { PageLoader } from "./page-loader";

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

/**
 * A route of a feature the instance can switch off (spec 000 §1): the not-found page when it is
 * off, a loader until the instance says.
 */
export function RequireFeature({ feature, children }: { feature: Feature; children: ReactNode }) {
  const on = useFeature(feature);
  if (on === undefined) return <PageLoader />;
  return on ? children : <NotFoundPage />;
}
