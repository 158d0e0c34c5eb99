import { type ReservedPage, id as idSchema } from "@sealwork/contracts";
import { type Actions, type Actor, type GroupMember, type MemberActor, type ResourceOf, can, requireMember } from "../access";
import { db } from "../db/service";
import { type ErrorCode, fail, valid } from "../errors";
import type { GroupItem, GroupMemberItem, GroupPageItem } from "./entities";
import { pageResource } from "./views";
import "./entities";
import "./errors";

/** What a verb learns from groupAccess(): who acts, the group, and the actor's membership in it. */
export interface GroupAccess {
  me: MemberActor;
  group: GroupItem;
  member: GroupMemberItem | undefined;
  /** The membership as the access layer sees it (roles loaded only where asked for). */
  membership: GroupMember | null;
}

export async function findGroup(id: number): Promise<GroupItem | undefined> {
  const { data } = await db().entities.group.get({ id }).go();
  return data ?? undefined;
}

export async function memberOf(groupId: number, userId: number): Promise<GroupMemberItem | undefined> {
  const { data } = await db().entities.groupmember.get({ groupId, userId }).go();
  return data ?? undefined;
}

export async function membersOf(groupId: number): Promise<GroupMemberItem[]> {
  const { data } = await db().entities.groupmember.query.byGroup({ groupId }).go({ pages: "all" });
  return data;
}

export async function pagesOf(groupId: number): Promise<GroupPageItem[]> {
  const { data } = await db().entities.grouppage.query.byGroup({ groupId }).go({ pages: "all" });
  return data;
}

/** The roles `userId` holds in `group`: the group's and instance-wide ones, and the admin role for its administrators. */
export async function rolesOf(group: GroupItem, member: GroupMemberItem): Promise<number[]> {
  const query = (groupId: number) => db().entities.roleassignment.query.byUser({ userId: member.userId }).begins({ groupId }).go({ pages: "all" });
  const [own, instance] = await Promise.all([query(group.id), query(0)]);
  return [...(member.admin ? [group.adminRoleId] : []), ...[...own.data, ...instance.data].map((a) => a.roleId)];
}

/** The actor's membership for the access layer; with `withRoles`, the roles they hold (pages need them). */
export async function membership(group: GroupItem, member: GroupMemberItem | undefined, withRoles = false): Promise<GroupMember | null> {
  if (!member) return null;
  return { admin: member.admin, roles: withRoles ? await rolesOf(group, member) : [] };
}

/**
 * The group and the actor's membership if the actor may `action` it (access/can.ts): 404
 * group_not_found when there is no such group, else `denied` (403).
 */
export async function groupAccess(actor: Actor, id: number, action: Actions["group"] = "read", denied: ErrorCode = "group_forbidden", withRoles = false): Promise<GroupAccess> {
  const me = requireMember(actor);
  valid(idSchema, id);
  const [group, member] = await Promise.all([findGroup(id), memberOf(id, me.uid)]);
  if (!group) fail("group_not_found");
  const mine = await membership(group, member, withRoles);
  const resource: ResourceOf<"group"> = { kind: "group", id, member: mine };
  if (!can(me, action, resource)) fail(denied);
  return { me, group, member, membership: mine };
}

/**
 * The group and the actor's membership if they may `action` one of its reserved pages (the drive,
 * the conversation) at their level there (spec 001 §2: read to look, use to add and change; a
 * page an administrator made read-only for someone is read-only on the server too): 403
 * page_forbidden; not a member: 403 group_forbidden.
 */
export async function reservedPageAccess(actor: Actor, groupId: number, type: ReservedPage, action: "read" | "use"): Promise<GroupAccess & { page: ResourceOf<"page"> }> {
  const access = await groupAccess(actor, groupId, "read", "group_forbidden", true);
  const item = (await pagesOf(groupId)).find((p) => p.reserved && p.type === type);
  const page = item && pageResource(item, access.membership);
  if (!page || !can(access.me, action, page)) fail("page_forbidden");
  return { ...access, page };
}
