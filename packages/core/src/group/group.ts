import { CURRENCY_CODES_MAX, DEFAULT_CURRENCY, groupOptions, groupPatch as groupPatchBody, id as idSchema, newGroup, peopleQuery, type GroupView } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, can, requireMember } from "../access";
import { nextId } from "../db/counter";
import { db, writeTransaction } from "../db/service";
import { fail, valid } from "../errors";
import { allUsers, getUsers } from "../user/read";
import { groupAccess, membersOf, membership, pagesOf } from "./access";
import { groupsOf } from "./sharing";
import type { GroupItem, GroupMemberItem, GroupPageItem, RoleItem } from "./entities";
import { groupView } from "./views";
import "../conversation/errors";
import "./entities";
import "./errors";

const now = () => Math.floor(Date.now() / 1000);

/** The reserved pages every group starts with, in menu order. */
const RESERVED = [
  { type: "drive", title: "Drive" },
  { type: "members", title: "Members" },
  { type: "conversation", title: "Conversation" },
] as const;

/** ISO 4217, as this runtime (and every browser) knows it. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/**
 * Groups (spec 001 §1–§8, spec 000 §2–§9): creating one, reading it with its menu, its options,
 * who is in it, a user's groups and the person selector. What conversations' shared-group rule
 * asks is sharing.ts (small: the conversation areas carry it).
 */
export namespace Group {
  /**
   * POST /api/groups (super administrators, spec 000 §6): the group with its creator as its first
   * administrator, the initial members, the reserved pages and the admin role, in one transaction.
   */
  export async function create(actor: Actor, body: z.input<typeof newGroup>): Promise<GroupView> {
    const me = requireMember(actor);
    if (!can(me, "create-group", { kind: "instance" })) fail("forbidden");
    const input = valid(newGroup, body);
    if (!input.name) fail("group_name_missing");
    const others = [...new Set(input.members)].filter((uid) => uid !== me.uid);
    const users = await getUsers(others);
    if (others.some((uid) => !users.has(uid))) fail("user_not_found");
    const id = await nextId("group");
    const [adminRoleId, ...pageIds] = await Promise.all([nextId("role"), ...RESERVED.map(() => nextId("page"))]);
    const group: GroupItem = {
      id,
      name: input.name,
      creatorId: me.uid,
      memberCount: others.length + 1,
      adminCount: 1,
      logSeq: -1,
      epoch: 0,
      needsRekey: false,
      adminRoleId: adminRoleId!,
      lastMoteId: 0,
      createdAt: now(),
    };
    const members: GroupMemberItem[] = [me.uid, ...others].map((userId) => ({ groupId: id, userId, admin: userId === me.uid, joinedAt: now(), lastSeenMote: 0, lastVisit: 0 }));
    const pages: GroupPageItem[] = RESERVED.map((page, i) => ({
      id: pageIds[i]!,
      groupId: id,
      title: page.title,
      type: page.type,
      reserved: true,
      options: "{}",
      internal: false,
      menuOrder: i,
      read: [],
      write: [],
      use: [],
    }));
    const role: RoleItem = { id: adminRoleId!, groupId: id, name: "Administrators", admin: true };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.group.create(group).commit(),
      tx.role.create(role).commit(),
      ...members.map((m) => tx.groupmember.create(m).commit()),
      ...pages.map((p) => tx.grouppage.create(p).commit()),
    ]);
    if (canceled) throw new Error(`creating group ${id} was cancelled: ${reasons.join(",")}`);
    return groupView(me, group, pages, { admin: true, roles: [] });
  }

  /** GET /api/groups/{id}: the group, its options and the caller's menu (members). */
  export async function get(actor: Actor, id: number): Promise<GroupView> {
    const a = await groupAccess(actor, id, "read", "group_forbidden", true);
    return groupView(a.me, a.group, await pagesOf(id), a.membership);
  }

  /**
   * PATCH /api/groups/{id} (group administrators): the options as JSON text. currencyCodes: ISO
   * 4217 codes, upper-cased, the first the default (USD when none); startpage: one of its pages.
   */
  export async function patch(actor: Actor, id: number, body: z.input<typeof groupPatchBody>): Promise<GroupView> {
    const input = valid(groupPatchBody, body);
    const a = await groupAccess(actor, id, "manage");
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.options);
    } catch {
      return fail("group_options_invalid", { message: "The options are not JSON." });
    }
    const options = valid(groupOptions, parsed, "group_options_invalid");
    const pages = await pagesOf(id);
    const set: Partial<GroupItem> = {};
    if (options.currencyCodes !== undefined) set.currencyCodes = currencyCodes(options.currencyCodes);
    if (options.startpage !== undefined && options.startpage !== null) {
      if (!pages.some((p) => p.id === options.startpage)) fail("group_options_invalid", { message: "The start page is not a page of this group." });
      set.startpage = options.startpage;
    }
    let change = db().entities.group.patch({ id }).set(set);
    if (options.startpage === null) change = change.remove(["startpage"]);
    const { data } = await change.go({ response: "all_new" });
    return groupView(a.me, { ...a.group, ...data }, pages, await membership(a.group, a.member, true));
  }

  /** "usd, eur" or ["usd", "EUR"] → ["USD", "EUR"]: trimmed, upper-cased, blanks and repeats dropped; each an ISO 4217 code. */
  export function currencyCodes(value: string | string[]): string[] {
    const list = (Array.isArray(value) ? value : value.split(",")).map((c) => c.trim().toUpperCase()).filter(Boolean);
    const codes = [...new Set(list)];
    const unknown = codes.filter((c) => !CURRENCIES.has(c));
    if (unknown.length) fail("group_options_invalid", { message: `Not ISO 4217 currency codes: ${unknown.join(", ")}.` });
    if (codes.length > CURRENCY_CODES_MAX) fail("group_options_invalid", { message: `At most ${CURRENCY_CODES_MAX} currencies.` });
    return codes.length ? codes : [DEFAULT_CURRENCY];
  }

  /** GET /api/users/{id}/groups: the caller's groups with member counts (their own list only, or an administrator's look). */
  export async function listOf(actor: Actor, userId: number) {
    const me = requireMember(actor);
    valid(idSchema, userId);
    if (me.uid !== userId && me.kind === "user") fail("forbidden");
    const { data } = await db().entities.groupmember.query.byUser({ userId }).go({ pages: "all" });
    const admin = new Map(data.map((m) => [m.groupId, m.admin]));
    const seen = new Map(data.map((m) => [m.groupId, m.lastSeenMote]));
    const groups = data.length ? (await db().entities.group.get(data.map((m) => ({ id: m.groupId }))).go()).data : [];
    return {
      groups: groups
        .map((g) => ({ id: g.id, name: g.name, membercount: g.memberCount, am_admin: admin.get(g.id) ?? false }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
      // The group conversation: when they last looked, and how many messages came since.
      last_visits: Object.fromEntries(data.filter((m) => m.lastVisit).map((m) => [String(m.groupId), m.lastVisit])),
      outstanding: Object.fromEntries(
        groups.map((g) => [String(g.id), g.lastMoteId - (seen.get(g.id) ?? 0)] as const).filter(([, n]) => n > 0),
      ),
    };
  }

  /**
   * GET /api/people: the person selector (spec 000 §9). Administrators pick from everyone; others
   * from the members of their own groups. Matches names containing `q` (any case), by name.
   */
  export async function people(actor: Actor, query: z.input<typeof peopleQuery>) {
    const me = requireMember(actor);
    const input = valid(peopleQuery, query);
    let candidates: { id: number; name: string; disabled?: boolean }[];
    if (me.kind !== "user") {
      candidates = await allUsers();
    } else {
      const ids = new Set<number>();
      for (const groupId of await groupsOf(me.uid)) for (const m of await membersOf(groupId)) ids.add(m.userId);
      candidates = [...(await getUsers(ids)).values()];
    }
    const needle = input.q?.toLowerCase() ?? "";
    const matches = candidates
      .filter((u) => !u.disabled && u.name.toLowerCase().includes(needle))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    const offset = input.offset ?? 0;
    const limit = input.limit ?? 50;
    return { people: matches.slice(offset, offset + limit).map((u) => ({ id: u.id, name: u.name })), more: matches.length > offset + limit };
  }

}
