import * as z from "zod";
import { ADMINS, ANYONE } from "./access";
import * as f from "./fields";
import { memberRole, roleView } from "./groups";
import { route, type RouteContract } from "./route";
import { publicUser, session, userId } from "./users";

/** The instance (tenant): its public settings and its first administrator. */

export const instanceInfo = z.object({
  title: z.string(),
  name: z.string(),
  inEnv: z.enum(["production", "staging"]),
  idleTimeout: z.number(),
  indexChars: z.number(),
  featureOff: z.object({ convo: z.boolean(), drive: z.boolean(), pages: z.boolean() }),
  disableFeatures: z.array(z.string()),
  needsSetup: z.boolean(),
});
export type InstanceInfo = z.infer<typeof instanceInfo>;

/**
 * An account in the administrators' list: the public fields, and the key reset an administrator
 * made for it while the user has not taken it over (null otherwise; `expires` in seconds, its end,
 * which may have passed: then a new reset is needed), so that other administrators see it.
 */
export const listedUser = publicUser.extend({ key_reset: z.object({ expires: z.number() }).nullable() });
export type ListedUser = z.infer<typeof listedUser>;

/** POST /api/instance/setup: the first administrator, with the one-time setup token. */
export const setupBody = z.object({ token: z.string().min(1).max(200), name: f.name, email: f.email, password: f.password });

/** The instance: health, public settings, first-administrator setup, the account list: the routes, by "METHOD /path" (merged in index.ts). */
export const instanceRoutes = {
  "GET /api/health": route({
    access: ANYONE,
    response: z.object({
      status: z.enum(["ok", "degraded"]),
      table: z.string(),
      bucket: z.string(),
      queue: z.string(),
    }),
  }),
  "GET /api/instance": route({ access: ANYONE, response: instanceInfo }),
  "POST /api/instance/setup": route({
    access: ANYONE,
    body: setupBody,
    response: session,
  }),
  "GET /api/instance/users": route({
    access: ADMINS,
    /** roles=1 adds the roles (instance-wide and every group's) and who holds them (spec 001 §7). */
    query: z.object({ singleuser: f.idParam.optional(), roles: z.enum(["0", "1"]).optional() }),
    response: z.object({ users: z.array(listedUser), roles: z.array(roleView).optional(), user_roles: z.array(memberRole).optional() }),
  }),
  /** Switches an account off: no login, its tokens refused at once (not one's own; a super administrator's only by a super administrator). */
  "POST /api/instance/users/{id}/disable": route({ access: ADMINS, params: userId, response: z.object({ user: publicUser }) }),
  /** Switches it on again (its old tokens stay refused). */
  "POST /api/instance/users/{id}/enable": route({ access: ADMINS, params: userId, response: z.object({ user: publicUser }) }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const instanceErrorCodes = ["setup_closed", "setup_token_invalid"] as const;
