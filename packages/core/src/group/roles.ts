import { id as idSchema, newRole, roleAssignment, type RoleView } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actions, type Actor, type GroupMember, can, requireAdmin, requireMember } from "../access";
import { nextId } from "../db/counter";
import { db } from "../db/service";
import { isConditionFailure } from "../db/conditions";
import { fail, valid } from "../errors";
import { getUser, getUsers } from "../user/read";
import { findGroup, groupAccess, memberOf } from "./access";
import type { GroupItem, RoleItem } from "./entities";
import { GroupMembers } from "./members";
import { roleView } from "./views";
import "../conversation/errors";
import "./entities";
import "./errors";

interface RoleAccess {
  role: RoleItem;
  group: GroupItem | undefined;
}

/** The role if the actor may `action` it: 404 role_not_found, 422 role_admin for the admin role where it is refused, else 403. */
async function roleAccess(actor: Actor, id: number, action: Actions["role"]): Promise<RoleAccess> {
  const me = requireMember(actor);
  valid(idSchema, id);
  const { data: role } = await db().entities.role.get({ id }).go();
  if (!role) fail("role_not_found");
  const group = role.groupId ? await findGroup(role.groupId) : undefined;
  const item = group ? await memberOf(group.id, me.uid) : undefined;
  const member: GroupMember | null = item ? { admin: item.admin, roles: [] } : null;
  if (!can(me, "manage", { kind: "role", groupId: role.groupId, admin: false, member })) fail("group_forbidden");
  if (!can(me, action, { kind: "role", groupId: role.groupId, admin: role.admin, member })) fail("role_admin");
  return { role, group };
}

/**
 * Roles (spec 001 §3, §5, §6): instance-wide ones (instance administrators) and a group's (its
 * administrators). Roles appear in page permission lists; the group's admin role is held by its
 * administrators alone: assigning it promotes a member for good, and it is never deleted or taken.
 */
export namespace Role {
  /** POST /api/roles: a group role (group_id) or an instance-wide one (group_id 0). */
  export async function create(actor: Actor, body: z.input<typeof newRole>): Promise<RoleView> {
    const input = valid(newRole, body);
    let groupName: string | null = null;
    if (input.group_id === 0) requireAdmin(actor);
    else groupName = (await groupAccess(actor, input.group_id, "manage")).group.name;
    if (!input.name) fail("role_name_missing");
    const role: RoleItem = { id: await nextId("role"), groupId: input.group_id, name: input.name, admin: false };
    await db().entities.role.create(role).go();
    return roleView(role, groupName);
  }

  /** POST /api/roles/{id} with _method DELETE (or DELETE): the role and who held it; never the admin role. */
  export async function remove(actor: Actor, id: number) {
    const { role } = await roleAccess(actor, id, "delete");
    const { data } = await db().entities.roleassignment.query.byRole({ roleId: id }).go({ pages: "all" });
    if (data.length) await db().entities.roleassignment.delete(data.map((a) => ({ roleId: a.roleId, userId: a.userId }))).go();
    await db().entities.role.delete({ id: role.id }).go();
    return { deleted: id };
  }

  /** POST /api/roles/{id}/assign: a group role to a member of its group (member_missing), an instance-wide role to anyone; 422 role_assigned if held. */
  export async function assign(actor: Actor, id: number, body: z.input<typeof roleAssignment>) {
    const input = valid(roleAssignment, body);
    const { role, group } = await roleAccess(actor, id, "manage");
    if (group) {
      if (!(await memberOf(group.id, input.user_id))) fail("member_missing");
      if (role.admin) {
        const before = await memberOf(group.id, input.user_id);
        if (before?.admin) fail("role_assigned");
        await GroupMembers.promote(group.id, input.user_id);
        return { role_id: id, user_id: input.user_id };
      }
    } else if (!(await getUser(input.user_id))) fail("user_not_found");
    try {
      await db().entities.roleassignment.create({ roleId: id, userId: input.user_id, groupId: role.groupId }).go();
    } catch (error) {
      if (isConditionFailure(error)) fail("role_assigned");
      throw error;
    }
    return { role_id: id, user_id: input.user_id };
  }

  /** POST /api/roles/{id}/unassign: 422 role_not_assigned if not held; the admin role is never taken (role_admin). */
  export async function unassign(actor: Actor, id: number, body: z.input<typeof roleAssignment>) {
    const input = valid(roleAssignment, body);
    await roleAccess(actor, id, "unassign");
    try {
      await db()
        .entities.roleassignment.delete({ roleId: id, userId: input.user_id })
        .where((attr, op) => op.exists(attr.userId))
        .go();
    } catch (error) {
      if (isConditionFailure(error)) fail("role_not_assigned");
      throw error;
    }
    return { role_id: id, user_id: input.user_id };
  }

  /** The roles of a group and the instance-wide ones, with who holds each among `members` (the admin role: the administrators). */
  export async function ofGroup(group: GroupItem, admins: number[]) {
    const query = (g: number) => db().entities.role.query.all({}).begins({ groupId: g }).go({ pages: "all" });
    const [own, instance] = await Promise.all([query(group.id), query(0)]);
    const roles = [...own.data.filter((r) => r.groupId === group.id), ...instance.data.filter((r) => r.groupId === 0)];
    const holders = await Promise.all(roles.filter((r) => !r.admin).map(async (r) => (await db().entities.roleassignment.query.byRole({ roleId: r.id }).go({ pages: "all" })).data));
    const assignments = [...admins.map((u) => ({ user_id: u, role_id: group.adminRoleId })), ...holders.flat().map((a) => ({ user_id: a.userId, role_id: a.roleId }))];
    return { roles: roles.map((r) => roleView(r, r.groupId ? group.name : null)), member_roles: assignments };
  }

  /** GET /api/instance/users?roles=1 (administrators): every role, and who holds each. */
  export async function all(actor: Actor) {
    requireAdmin(actor);
    const { data: roles } = await db().entities.role.query.all({}).go({ pages: "all" });
    const groupIds = [...new Set(roles.map((r) => r.groupId).filter(Boolean))];
    const groups = groupIds.length ? (await db().entities.group.get(groupIds.map((id) => ({ id }))).go()).data : [];
    const names = new Map(groups.map((g) => [g.id, g]));
    const held = await Promise.all(roles.filter((r) => !r.admin).map(async (r) => (await db().entities.roleassignment.query.byRole({ roleId: r.id }).go({ pages: "all" })).data));
    const admins = await Promise.all(
      groups.map(async (g) => (await db().entities.groupmember.query.byGroup({ groupId: g.id }).go({ pages: "all" })).data.filter((m) => m.admin).map((m) => ({ user_id: m.userId, role_id: g.adminRoleId }))),
    );
    return {
      roles: roles.map((r) => roleView(r, names.get(r.groupId)?.name ?? null)),
      user_roles: [...admins.flat(), ...held.flat().map((a) => ({ user_id: a.userId, role_id: a.roleId }))],
    };
  }

  /** GET /api/groups/{id}/members: the members with their roles, the roles and who holds them (members of the group). */
  export async function membersPage(actor: Actor, groupId: number) {
    const a = await groupAccess(actor, groupId, "read");
    const { data: members } = await db().entities.groupmember.query.byGroup({ groupId }).go({ pages: "all" });
    const [users, roles] = await Promise.all([getUsers(members.map((m) => m.userId)), ofGroup(a.group, members.filter((m) => m.admin).map((m) => m.userId))]);
    const memberIds = new Set(members.map((m) => m.userId));
    const member_roles = roles.member_roles.filter((r) => memberIds.has(r.user_id));
    return {
      attrib: { id: a.group.id, name: a.group.name, am_admin: a.member?.admin ?? false, creator_id: a.group.creatorId },
      members: members.map((m) => ({
        id: m.userId,
        name: users.get(m.userId)?.name ?? "",
        group_admin: m.admin,
        roles: member_roles.filter((r) => r.user_id === m.userId).map((r) => r.role_id),
        creator: m.userId === a.group.creatorId,
      })),
      roles: roles.roles,
      member_roles,
    };
  }
}

