import type { MenuEntry } from "@sealwork/contracts";
import { matchPath } from "react-router";

export type { MenuEntry };

/** A page's place in addresses: the reserved words for drive and members (spec 001 §2), else its number. */
export function pageSlug(entry: Pick<MenuEntry, "id" | "reserved">): string {
  return entry.reserved === "drive" || entry.reserved === "members" ? entry.reserved : String(entry.id);
}

export function pagePath(groupId: number, entry: Pick<MenuEntry, "id" | "reserved">): string {
  return `/group/${groupId}/page/${pageSlug(entry)}`;
}

/** What the menu calls a page: its menu name, else its name (spec 000 §2). */
export function menuLabel(entry: Pick<MenuEntry, "name" | "menu_name">): string {
  return entry.menu_name?.trim() || entry.name;
}

/**
 * The left menu (spec 001 §2): pages with a level above 0, by menu order (0–255, higher sinks),
 * then id. The server sends them so; the client holds to it whatever arrives.
 */
export function visibleEntries(menu: readonly MenuEntry[]): MenuEntry[] {
  return menu.filter((entry) => entry.level > 0).sort((a, b) => a.menu_order - b.menu_order || a.id - b.id);
}

/** Spec 001 §2: a page is read-only when the level on it is 1 or below. */
export const isReadOnly = (entry: Pick<MenuEntry, "level">) => entry.level <= 1;

/**
 * Which menu entry a route's page parameter names: a reserved word (drive, members) or a page id.
 * `undefined` when the parameter is neither (a bad address); `null` when it is well formed but
 * the menu has no such page (not visible to the caller, or not there).
 */
export function findEntry(menu: readonly MenuEntry[], param: string | undefined): MenuEntry | null | undefined {
  if (param === "drive" || param === "members") return menu.find((entry) => entry.reserved === param) ?? null;
  const id = pageIdParam(param);
  if (id === null) return undefined;
  return menu.find((entry) => entry.id === id) ?? null;
}

/** An id in an address: decimal digits without sign or leading zero, as the server spells them. */
export function pageIdParam(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d{0,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}

/** The group a path is inside: /group/{g}/…, with g a page id's spelling; null elsewhere (and for /group/new). */
export function groupIdOfPath(pathname: string): number | null {
  const match = matchPath({ path: "/group/:groupId", end: false }, pathname);
  return pageIdParam(match?.params.groupId);
}
