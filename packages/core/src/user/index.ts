export { User } from "./user";
export type { UserItem } from "./entities";
