import * as z from "zod";
import { MEMBERS } from "./access";
import * as f from "./fields";
import { requiredName, roleView } from "./groups";
import { route, type RouteContract } from "./route";

/**
 * Roles (spec 001 §3, §5, §6; docs/api.md, Roles): instance-wide roles (group 0, made by
 * instance administrators) and group roles (made by the group's administrators). Each group has
 * an admin role from its creation: its holders are the group administrators, it cannot be
 * deleted or taken away, and assigning it promotes the member for good.
 */
export const roleParams = z.object({ id: f.idParam });
export const newRole = z.object({ name: requiredName, group_id: z.union([f.id, z.literal(0)]).default(0) });
export const roleAssignment = z.object({ user_id: f.id });

export const roleRoutes = {
  "POST /api/roles": route({ access: MEMBERS, body: newRole, response: roleView }),
  "DELETE /api/roles/{id}": route({ access: MEMBERS, methodOverride: true, params: roleParams, response: z.object({ deleted: z.number() }) }),
  "POST /api/roles/{id}/assign": route({ access: MEMBERS, params: roleParams, body: roleAssignment, response: z.object({ role_id: z.number(), user_id: z.number() }) }),
  "POST /api/roles/{id}/unassign": route({ access: MEMBERS, params: roleParams, body: roleAssignment, response: z.object({ role_id: z.number(), user_id: z.number() }) }),
} satisfies Record<string, RouteContract>;

export const roleErrorCodes = ["role_not_found", "role_name_missing", "role_admin", "role_assigned", "role_not_assigned"] as const;
