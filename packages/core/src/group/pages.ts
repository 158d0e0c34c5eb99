import { id as idSchema, newPage, pagePatch, permitBody, type Grant, type PageView } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actions, type Actor, type GroupMember, can, requireMember } from "../access";
import { nextId } from "../db/counter";
import { db, writeTransaction } from "../db/service";
import { type ErrorCode, fail, valid } from "../errors";
import { getUsers } from "../user/read";
import { findGroup, groupAccess, memberOf, membersOf, membership, pagesOf } from "./access";
import type { GroupItem, GroupPageItem } from "./entities";
import { pageResource, pageView } from "./views";
import "./entities";
import "./errors";

export interface PageAccess {
  page: GroupPageItem;
  group: GroupItem;
  member: GroupMember | null;
}

/**
 * The page and its group if the actor may `action` it: 404 page_not_found, else `denied` (403;
 * page_forbidden, 'You are not allowed to access this page!', for reading).
 */
export async function pageAccess(actor: Actor, id: number, action: Actions["page"], denied: ErrorCode = "page_forbidden"): Promise<PageAccess> {
  const me = requireMember(actor);
  valid(idSchema, id);
  const { data: page } = await db().entities.grouppage.get({ id }).go();
  if (!page) fail("page_not_found");
  const [group, item] = await Promise.all([findGroup(page.groupId), memberOf(page.groupId, me.uid)]);
  if (!group) fail("page_not_found");
  const member = await membership(group, item, true);
  if (!can(me, action, pageResource(page, member))) fail(denied);
  return { page, group, member };
}

/** JSON text of an object, or `code`. */
function objectText(text: string, code: ErrorCode): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(code, { message: "The options are not JSON." });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) fail(code, { message: "The options are a JSON object." });
  return JSON.stringify(parsed);
}

/** A calendar's saved autofilters in its options text (spec 002 §3), as JSON to compare; undefined when the text holds none. */
function autofiltersOf(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Stored options are checked when saved; text from before that has no autofilters to keep.
    console.warn("A page's stored options are not JSON", error);
    return undefined;
  }
  const value = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>).autofilters : undefined;
  return value === undefined ? undefined : JSON.stringify(value);
}

/**
 * Pages of a group (spec 001 §2–§8): the six types, the reserved drive, members and conversation
 * pages (never deleted), their menu items and permission lists. A page's level for the caller is
 * the access layer's pageLevel.
 */
export namespace Page {
  /** GET /api/pages?group=: the pages the caller may see (level above 0), by menu order. */
  export async function list(actor: Actor, groupId: number): Promise<{ pages: PageView[] }> {
    const a = await groupAccess(actor, groupId, "read", "group_forbidden", true);
    const pages = (await pagesOf(groupId)).map((p) => pageView(a.me, p, a.group, a.membership)).filter((p) => p.level > 0);
    return { pages: pages.sort((x, y) => x.menu_order - y.menu_order || x.id - y.id) };
  }

  /** POST /api/pages (group administrators): a page of one of the six types, last in the menu. */
  export async function create(actor: Actor, body: z.input<typeof newPage>): Promise<PageView> {
    const input = valid(newPage, body);
    const a = await groupAccess(actor, input.group, "manage", "group_forbidden", true);
    if (!input.name) fail("page_name_missing");
    const existing = await pagesOf(input.group);
    const page: GroupPageItem = {
      id: await nextId("page"),
      groupId: input.group,
      title: input.name,
      type: input.type,
      reserved: false,
      options: "{}",
      internal: false,
      menuOrder: Math.min(255, Math.max(-1, ...existing.map((p) => p.menuOrder)) + 1),
      read: [],
      write: [],
      use: [],
    };
    await db().entities.grouppage.create(page).go();
    return pageView(a.me, page, a.group, a.membership);
  }

  /** GET /api/pages/{id}: the page as the caller sees it (level 1 or more). */
  export async function get(actor: Actor, id: number): Promise<PageView> {
    const { page, group, member } = await pageAccess(actor, id, "read");
    return pageView(actor, page, group, member);
  }

  /**
   * POST /api/pages/{id} with _method PATCH (group administrators): the page's options (not on the
   * reserved pages: page_no_options), or its menu item; the name of a reserved page stays. A
   * start page is the group's option: set here, or cleared when this page stops being it. A
   * calendar's autofilters change only by a super administrator's hand (spec 002 §6; else 403
   * page_autofilters_forbidden): others save its options with them as they were.
   */
  export async function patch(actor: Actor, id: number, body: z.input<typeof pagePatch>) {
    const input = valid(pagePatch, body, "page_menu_invalid");
    const { page, group, member } = await pageAccess(actor, id, "configure", "group_forbidden");
    if (input.options !== undefined && page.reserved) fail("page_no_options");
    if (input.name !== undefined && page.reserved && input.name !== page.title) fail("page_reserved_name");
    if (input.name !== undefined && !input.name) fail("page_name_missing");
    const options = input.options !== undefined ? objectText(input.options, "page_menu_invalid") : undefined;
    if (options !== undefined && page.type === "calendar" && autofiltersOf(options) !== autofiltersOf(page.options)) {
      if (!can(actor, "autofilter", pageResource(page, member))) fail("page_autofilters_forbidden");
    }
    const set: Partial<GroupPageItem> = {
      ...(options !== undefined ? { options } : {}),
      ...(input.name !== undefined ? { title: input.name } : {}),
      ...(input.internal !== undefined ? { internal: input.internal } : {}),
      ...(input.icon !== undefined ? { icon: input.icon } : {}),
      ...(input.menu_name !== undefined ? { menuName: input.menu_name } : {}),
      ...(input.menu_order !== undefined ? { menuOrder: input.menu_order } : {}),
    };
    const startpage = input.startpage === true ? id : input.startpage === false && group.startpage === id ? null : undefined;
    const { canceled } = await writeTransaction((tx) => [
      tx.grouppage.patch({ id }).set(set).commit(),
      ...(startpage === undefined
        ? []
        : [startpage === null ? tx.group.patch({ id: group.id }).remove(["startpage"]).commit() : tx.group.patch({ id: group.id }).set({ startpage }).commit()]),
    ]);
    if (canceled) fail("page_not_found");
    const changed = { ...page, ...set };
    const nextGroup = { ...group, startpage: startpage === undefined ? group.startpage : (startpage ?? undefined) };
    return { options: changed.options, title: changed.title, page: pageView(actor, changed, nextGroup, member) };
  }

  /** POST /api/pages/{id} with _method DELETE (group administrators): never a reserved page (page_internal). */
  export async function remove(actor: Actor, id: number) {
    const { page, group } = await pageAccess(actor, id, "configure", "group_forbidden");
    if (page.reserved) fail("page_internal");
    const { canceled } = await writeTransaction((tx) => [
      tx.grouppage.delete({ id }).where((attr, op) => op.exists(attr.id)).commit(),
      ...(group.startpage === id ? [tx.group.patch({ id: group.id }).remove(["startpage"]).commit()] : []),
    ]);
    if (canceled) fail("page_not_found");
    return { deleted: id };
  }

  /** GET /api/pages/{id}/permissions: the lists with the names they mention, and whether the caller may change them. */
  export async function permissions(actor: Actor, id: number) {
    const { page, group, member } = await pageAccess(actor, id, "read");
    return permissionsView(page, group, member?.admin === true);
  }

  /**
   * POST /api/pages/{id}/permit (group administrators; else 403 permit_forbidden): the read,
   * write and use lists. Users must be members of the group; roles the group's or instance-wide.
   */
  export async function permit(actor: Actor, id: number, body: z.input<typeof permitBody>) {
    const input = valid(permitBody, body, "permit_invalid");
    const { page, group } = await pageAccess(actor, id, "configure", "permit_forbidden");
    const all = [...input.read, ...input.write, ...input.use];
    const members = new Set((await membersOf(group.id)).map((m) => m.userId));
    const roles = await rolesFor(group.id);
    const unknown = all.filter((g) => (g.role ? !roles.has(g.id) : !members.has(g.id)));
    if (unknown.length) fail("permit_invalid", { message: `Not members or roles of this group: ${unknown.map((g) => `${g.role ? "role" : "user"} ${g.id}`).join(", ")}.` });
    const unique = (list: Grant[]) => [...new Map(list.map((g) => [`${g.role}:${g.id}`, g])).values()];
    const lists = { read: unique(input.read), write: unique(input.write), use: unique(input.use) };
    await db().entities.grouppage.patch({ id }).set(lists).go();
    return permissionsView({ ...page, ...lists }, group, true);
  }

  /** The roles a page of the group may name, by id with their names. */
  async function rolesFor(groupId: number): Promise<Map<number, string>> {
    const query = (g: number) => db().entities.role.query.all({}).begins({ groupId: g }).go({ pages: "all" });
    const [own, instance] = await Promise.all([query(groupId), query(0)]);
    return new Map([...own.data, ...instance.data].filter((r) => r.groupId === groupId || r.groupId === 0).map((r) => [r.id, r.name]));
  }

  async function permissionsView(page: GroupPageItem, group: GroupItem, editable: boolean) {
    const lists = { read: page.read, write: page.write, use: page.use };
    const all = [...lists.read, ...lists.write, ...lists.use];
    const [users, roles] = await Promise.all([getUsers(all.filter((g) => !g.role).map((g) => g.id)), rolesFor(group.id)]);
    const attrib: Record<string, string> = {};
    for (const g of all) attrib[`${g.role ? "r" : "u"}${g.id}`] = (g.role ? roles.get(g.id) : users.get(g.id)?.name) ?? "";
    return { ...lists, _attrib: attrib, is_editable: editable };
  }
}
