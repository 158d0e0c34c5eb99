// What other features use of the groups feature: the group a path is inside and its menu (for the shell), home's group list.
export { groupIdOfPath, useGroupMenu, type GroupMenuItem } from "./menu/group-menu";
export { GroupRows } from "./group-rows";
