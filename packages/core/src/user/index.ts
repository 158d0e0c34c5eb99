export { User } from "./user";
export { Login } from "./login";
export type { UserItem } from "./entities";
