import type { Grant } from "@sealwork/contracts";
import { type Actions, type Actor, type GroupMember, type MemberActor, type ResourceOf, can, kindOf } from "../access";
import { db } from "../db/service";
import { fail } from "../errors";
import { type GroupAccess, membersOf, reservedPageAccess } from "../group/access";
import type { GroupItem } from "../group/entities";
import type { UserItem } from "../user/entities";
import { getUsers } from "../user/read";
import type { DriveItem } from "./entities";
import "./entities";
import "./errors";
import "../group/entities";

/** The lists of an item (empty: none). */
export type GrantLists = Pick<DriveItem, "read" | "write" | "use">;

export async function findItem(groupId: number, id: number): Promise<DriveItem | undefined> {
  const { data } = await db().entities.driveitem.get({ groupId, id }).go();
  return data ?? undefined;
}

/** The item as the access layer sees it, for an actor of this membership. */
export function driveResource(it: Pick<DriveItem, "groupId" | "sourceId" | "kind"> & GrantLists, member: GroupMember | null): ResourceOf<"driveitem"> {
  return { kind: "driveitem", groupId: it.groupId, authorId: it.sourceId, drive: it.kind === "drive", member, read: it.read, write: it.write, use: it.use };
}

export function allowed(me: MemberActor, action: Actions["driveitem"], it: DriveItem, member: GroupMember | null): boolean {
  return can(me, action, driveResource(it, member));
}

export const hasGrants = (it: GrantLists) => it.read.length > 0 || it.write.length > 0 || it.use.length > 0;
/** An item whose read list names someone: its key is granted to its readers, not wrapped under the group key. */
export const isRestricted = (it: GrantLists) => it.read.length > 0;

/**
 * Whether the actor may read the item and every item above it (what is in an item they may not
 * read is out of their reach too); a chain deeper than a tree goes is not.
 */
export async function readableChain(me: MemberActor, member: GroupMember | null, it: DriveItem, depthMax = 64): Promise<boolean> {
  let at: DriveItem | undefined = it;
  for (let i = 0; at && i <= depthMax; i++) {
    if (!allowed(me, "read", at, member)) return false;
    if (at.kind === "drive") return true;
    at = await findItem(at.groupId, at.parentId);
  }
  return false;
}

/**
 * A drive item by its numeric id alone (the /api/motes/{id} routes), with its group and the
 * actor's membership, for someone at `level` on the drive page who may read the item: an item
 * they may not read is as absent as one that is not there (404 drive_item_not_found).
 */
export async function moteAccess(actor: Actor, id: number, level: "read" | "use"): Promise<GroupAccess & { it: DriveItem }> {
  const { data: mote } = await db().entities.drivemote.get({ id }).go();
  if (!mote) fail("drive_item_not_found");
  const access = await reservedPageAccess(actor, mote.groupId, "drive", level);
  const it = await findItem(mote.groupId, id);
  if (!it || !(await readableChain(access.me, access.membership, it))) fail("drive_item_not_found");
  return { ...access, it };
}

/** What telling readers apart needs of the group, loaded once for any number of items. */
export interface ReaderContext {
  group: GroupItem;
  members: { userId: number; admin: boolean; user: UserItem }[];
  holders: Map<number, number[]>;
}

/** The group's members with their accounts, and the holders of each of these roles. */
export async function readerContext(group: GroupItem, roleIds: Iterable<number>): Promise<ReaderContext> {
  const all = await membersOf(group.id);
  const roles = [...new Set(roleIds)];
  const [users, held] = await Promise.all([
    getUsers(all.map((m) => m.userId)),
    Promise.all(roles.map(async (roleId) => [roleId, (await db().entities.roleassignment.query.byRole({ roleId }).go({ pages: "all" })).data.map((a) => a.userId)] as const)),
  ]);
  const members = all.flatMap((m) => {
    const user = users.get(m.userId);
    return user ? [{ userId: m.userId, admin: m.admin, user }] : [];
  });
  return { group, members, holders: new Map(held) };
}

/** The role ids any of these items' lists name. */
export const namedRoles = (items: GrantLists[]) => items.flatMap((it) => [...it.read, ...it.write, ...it.use].filter((g) => g.role).map((g) => g.id));

/** The members of the context's group for whom `test` holds, asked with each one's actor and membership (roles resolved to holders). */
export function membersWho(context: ReaderContext, test: (actor: MemberActor, membership: GroupMember) => boolean): Set<number> {
  const found = new Set<number>();
  for (const m of context.members) {
    const held = [...context.holders].filter(([, users]) => users.includes(m.userId)).map(([roleId]) => roleId);
    const membership: GroupMember = { admin: m.admin, roles: m.admin ? [...held, context.group.adminRoleId] : held };
    const actor: MemberActor = { kind: kindOf(m.user), ip: "", uid: m.userId, user: m.user };
    if (test(actor, membership)) found.add(m.userId);
  }
  return found;
}

/**
 * Who may read an item with these lists (access/can.ts, asked for each member of the group): the
 * members its lists name or whose roles they name, its author, the group's administrators and the
 * instance administrators among its members. A restricted item's key is granted to these only.
 */
export function readersIn(context: ReaderContext, it: Pick<DriveItem, "groupId" | "sourceId" | "kind"> & GrantLists): Set<number> {
  return membersWho(context, (actor, membership) => can(actor, "read", driveResource(it, membership)));
}

export async function readersOf(group: GroupItem, it: Pick<DriveItem, "groupId" | "sourceId" | "kind"> & GrantLists): Promise<Set<number>> {
  return readersIn(await readerContext(group, namedRoles([it])), it);
}

/** The same list, each grant once, in the order first named. */
export const uniqueGrants = (list: readonly Grant[]): Grant[] => [...new Map(list.map((g) => [`${g.role}:${g.id}`, { role: g.role, id: g.id }])).values()];

export const sameGrants = (a: readonly Grant[], b: readonly Grant[]) => {
  const key = (l: readonly Grant[]) => l.map((g) => `${g.role}:${g.id}`).sort().join(",");
  return key(a) === key(b);
};
