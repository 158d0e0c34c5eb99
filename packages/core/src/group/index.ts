export { Group } from "./group";
export { GroupMembers } from "./members";
export { GroupKeys } from "./keys";
export { Page } from "./pages";
export { Role } from "./roles";
export { GroupTargets } from "./targets";
export { GroupConversation } from "./messages";
export { reservedPageAccess } from "./access";
