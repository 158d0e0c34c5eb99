import { DEFAULT_CURRENCY, type GroupView, type MenuEntry, type PageView, type ReservedPage, type RoleView } from "@sealwork/contracts";
import { type Actor, type GroupMember, PAGE_LEVEL, type ResourceOf, pageLevel } from "../access";
import type { GroupItem, GroupPageItem, RoleItem } from "./entities";

/** The group options as the spec's JSON text: startpage and currencyCodes (a comma list; USD when none was set). */
export function optionsText(group: GroupItem): string {
  const codes = group.currencyCodes?.length ? group.currencyCodes : [DEFAULT_CURRENCY];
  return JSON.stringify({ startpage: group.startpage ?? null, currencyCodes: codes.join(",") });
}

export function pageResource(page: GroupPageItem, member: GroupMember | null): ResourceOf<"page"> {
  return { kind: "page", groupId: page.groupId, member, internal: page.internal, read: page.read, use: page.use };
}

export function menuEntry(page: GroupPageItem, group: GroupItem, level: number): MenuEntry {
  return {
    id: page.id,
    name: page.title,
    menu_name: page.menuName || null,
    icon: page.icon || null,
    menu_order: page.menuOrder,
    internal: page.internal,
    startpage: group.startpage === page.id,
    type: page.type as MenuEntry["type"],
    reserved: page.reserved ? (page.type as ReservedPage) : null,
    level,
  };
}

/** Types where nobody creates items from the page itself (spec 001 §2). */
const NO_CREATE = new Set(["calendar", "carddeck", "form", "drive", "members", "conversation"]);

export function pageView(actor: Actor, page: GroupPageItem, group: GroupItem, member: GroupMember | null): PageView {
  const level = pageLevel(actor, pageResource(page, member));
  return {
    ...menuEntry(page, group, level),
    group_id: page.groupId,
    options: page.options,
    read_only: level <= PAGE_LEVEL.read,
    can_create: level >= PAGE_LEVEL.use && !NO_CREATE.has(page.type),
    is_editable: level >= PAGE_LEVEL.admin,
  };
}

/** The pages the actor may see (level above 0), by menu order (higher sinks), then id. */
export function menu(actor: Actor, pages: GroupPageItem[], group: GroupItem, member: GroupMember | null): MenuEntry[] {
  return pages
    .map((page) => menuEntry(page, group, pageLevel(actor, pageResource(page, member))))
    .filter((entry) => entry.level > PAGE_LEVEL.none)
    .sort((a, b) => a.menu_order - b.menu_order || a.id - b.id);
}

export function groupView(actor: Actor, group: GroupItem, pages: GroupPageItem[], member: GroupMember | null): GroupView {
  return {
    id: group.id,
    name: group.name,
    options: optionsText(group),
    menu: menu(actor, pages, group, member),
    am_admin: member?.admin ?? false,
    creator_id: group.creatorId,
    membercount: group.memberCount,
    epoch: group.epoch,
    log_head: group.logSeq,
    needs_rekey: group.needsRekey,
  };
}

export function roleView(role: RoleItem, groupName: string | null): RoleView {
  return { id: role.id, name: role.name, group_id: role.groupId, admin: role.admin, group_name: groupName };
}
