import type { MenuEntry } from "@sealwork/contracts";
import { pagePath } from "../menu/menu-entries";

/**
 * Where /group/{g} leads (spec 001 §2): the start page option, else the drive, else the members
 * page, else the conversation page; only pages the caller may see (the menu). When none of them
 * is visible, the first page of the menu; `null` when the menu is empty.
 */
export function startPath(groupId: number, startpage: number | null, menu: readonly MenuEntry[]): string | null {
  const visible = menu.filter((entry) => entry.level > 0);
  const chosen =
    visible.find((entry) => startpage !== null && entry.id === startpage) ??
    visible.find((entry) => entry.reserved === "drive") ??
    visible.find((entry) => entry.reserved === "members") ??
    visible.find((entry) => entry.reserved === "conversation") ??
    visible[0];
  return chosen ? pagePath(groupId, chosen) : null;
}
