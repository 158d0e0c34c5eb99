import { assignMemberBody, memberBody, revokeMemberBody } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { db, writeTransaction } from "../db/service";
import { type ErrorCode, fail, valid } from "../errors";
import { getUser } from "../user/read";
import { type GroupAccess, findGroup, groupAccess, memberOf } from "./access";
import type { GroupMemberItem } from "./entities";
import { type GroupChange, groupPatch, groupRefusal, logItem, recordItem, wrapItem } from "./changes";
import "../conversation/errors";
import "./entities";
import "./errors";

const now = () => Math.floor(Date.now() / 1000);

/** How often a removal or promotion tries again after the member's admin state changed under it. */
const ATTEMPTS = 5;

/**
 * Members of a group (spec 001 §4–§8): adding, removing (or leaving), promoting to group
 * administrator. Each is one transaction over the member item and the group item (its counters
 * and conditions), with the membership log's entry and the new member's wrap when the client
 * sends them: nobody is half added, added twice, or left as the last administrator removed.
 */
export namespace GroupMembers {
  async function answer(a: GroupAccess, member: GroupMemberItem | null) {
    const group = (await findGroup(a.group.id)) ?? fail("group_not_found");
    const view = member ? { id: member.userId, name: (await getUser(member.userId))?.name ?? "", group_admin: member.admin, roles: member.admin ? [group.adminRoleId] : [], creator: member.userId === group.creatorId } : null;
    return { member: view, membercount: group.memberCount, log_head: group.logSeq, needs_rekey: group.needsRekey };
  }

  /** POST /api/groups/{id}/assignMember (group administrators): 409 member_exists for a member. */
  export async function assign(actor: Actor, groupId: number, body: z.input<typeof assignMemberBody>) {
    const input = valid(assignMemberBody, body);
    const a = await groupAccess(actor, groupId, "manage");
    if (!(await getUser(input.member_uid))) fail("user_not_found");
    const member: GroupMemberItem = { groupId, userId: input.member_uid, admin: false, joinedAt: now(), lastSeenMote: 0, lastVisit: 0 };
    const change: GroupChange = {
      members: 1,
      ...(input.log ? { head: input.log.head, newHead: input.log.head + input.log.entries.length } : {}),
      ...(input.wrap ? { epoch: input.wrap.epoch } : {}),
    };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.groupmember.create(member).commit(),
      groupPatch(tx, groupId, change),
      ...(input.log ? [logItem(tx, groupId, input.log.head, input.log.entries, a.me.uid)] : []),
      ...(input.wrap ? [wrapItem(tx, groupId, input.wrap.epoch, member.userId, input.wrap.wrap, a.me.uid)] : []),
      ...(input.wrap?.record ? [recordItem(tx, groupId, input.wrap.epoch, input.wrap.record)] : []),
    ]);
    if (canceled) {
      if (reasons[0] === "ConditionalCheckFailed") fail("member_exists");
      fail((await groupRefusal(groupId, change)) ?? "log_conflict");
    }
    return { ...(await answer(a, member)), added: true, wrapped: input.wrap !== undefined };
  }

  /**
   * POST /api/groups/{id}/revokeMember: an administrator removes a member, or a member leaves
   * (not the group's creator, spec 000 §5). The last administrator stays (member_zeroadmin): the
   * condition is on the group's administrator count, so of two removals of the last two at once
   * one is refused. The group then waits for its next epoch (needs_rekey).
   */
  export async function revoke(actor: Actor, groupId: number, body: z.input<typeof revokeMemberBody>) {
    const input = valid(revokeMemberBody, body);
    const self = "uid" in actor && actor.uid === input.member_uid;
    const a = await groupAccess(actor, groupId, self ? "leave" : "manage");
    if (self && a.group.creatorId === input.member_uid) fail("member_remove_creator");
    for (let attempt = 1; ; attempt++) {
      const target = await memberOf(groupId, input.member_uid);
      if (!target) fail("member_missing");
      const change: GroupChange = {
        members: -1,
        needsRekey: true,
        ...(target.admin ? { admins: -1, keepAdmin: true } : {}),
        ...(input.log ? { head: input.log.head, newHead: input.log.head + input.log.entries.length } : {}),
      };
      const { canceled, reasons } = await writeTransaction((tx) => [
        tx.groupmember
          .delete({ groupId, userId: target.userId })
          .where((attr, op) => `${op.exists(attr.userId)} AND ${op.eq(attr.admin, target.admin)}`)
          .commit(),
        groupPatch(tx, groupId, change),
        ...(input.log ? [logItem(tx, groupId, input.log.head, input.log.entries, a.me.uid)] : []),
      ]);
      if (!canceled) break;
      if (reasons[0] === "ConditionalCheckFailed") {
        // Gone meanwhile (member_missing above), or promoted meanwhile: read again.
        if (attempt < ATTEMPTS) continue;
        fail("member_missing");
      }
      const refusal: ErrorCode | undefined = await groupRefusal(groupId, change);
      fail(refusal ?? (target.admin ? "member_zeroadmin" : "log_conflict"));
    }
    await dropRoles(groupId, input.member_uid);
    return answer(a, null);
  }

  /** A removed member's roles of the group go with them (their instance-wide roles stay). */
  async function dropRoles(groupId: number, userId: number) {
    const { data } = await db().entities.roleassignment.query.byUser({ userId }).begins({ groupId }).go({ pages: "all" });
    const own = data.filter((r) => r.groupId === groupId);
    if (own.length) await db().entities.roleassignment.delete(own.map((r) => ({ roleId: r.roleId, userId }))).go();
  }

  /** POST /api/groups/{id}/makeAdminMember (group administrators): for good (spec 001 §4); a member already one stays one. */
  export async function makeAdmin(actor: Actor, groupId: number, body: z.input<typeof memberBody>) {
    const input = valid(memberBody, body);
    const a = await groupAccess(actor, groupId, "manage");
    return answer(a, await promote(groupId, input.member_uid));
  }

  /** Makes a member a group administrator (the admin role's assignment too): member_missing for a non-member. */
  export async function promote(groupId: number, userId: number): Promise<GroupMemberItem> {
    for (let attempt = 1; ; attempt++) {
      const target = await memberOf(groupId, userId);
      if (!target) fail("member_missing");
      if (target.admin) return target;
      const { canceled } = await writeTransaction((tx) => [
        tx.groupmember
          .patch({ groupId, userId })
          .set({ admin: true })
          .where((attr, op) => op.eq(attr.admin, false))
          .commit(),
        groupPatch(tx, groupId, { admins: 1 }),
      ]);
      if (!canceled) return { ...target, admin: true };
      if (attempt >= ATTEMPTS) fail("member_missing");
    }
  }
}
