// What other features use of the groups feature: the group a path is inside and its menu (for the shell), home's group list.
export { useGroupMenu, type GroupMenuItem } from "./menu/group-menu";
export { groupIdOfPath } from "./menu/menu-entries";
export { GroupRows } from "./group-rows";
/** A renewal of the user's account key (features/settings) renews the keys of the groups they administer. */
export { readSoleGroups, renewGroupKeys } from "./keys/renew-groups";
