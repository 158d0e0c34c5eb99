export { User } from "./user";
export { Login } from "./login";
export { PasswordReset } from "./password-reset";
export type { UserItem } from "./entities";
