import type { Grant } from "@sealwork/contracts";

export type PermissionList = "read" | "write" | "use";
export type Lists = Record<"read" | "write" | "use", Grant[]>;

/**
 * Spec 001 §2, Permission editor: a hint when read is empty but use is set (everyone reads, only
 * those named use), and when use is empty but read is set (those named only read: nobody but
 * group administrators creates items). Both empty: every member reads and uses the page.
 */
export function permissionHint(lists: Pick<Lists, "read" | "use">): "readEmpty" | "useEmpty" | null {
  if (lists.read.length === 0 && lists.use.length > 0) return "readEmpty";
  if (lists.use.length === 0 && lists.read.length > 0) return "useEmpty";
  return null;
}

export const grantKey = (grant: Grant) => `${grant.role ? "r" : "u"}${grant.id}`;

/** Adds a grant to a list once. */
export function withGrant(list: readonly Grant[], grant: Grant): Grant[] {
  return list.some((g) => grantKey(g) === grantKey(grant)) ? [...list] : [...list, grant];
}

export function withoutGrant(list: readonly Grant[], grant: Grant): Grant[] {
  return list.filter((g) => grantKey(g) !== grantKey(grant));
}
