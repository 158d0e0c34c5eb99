export { Invite } from "./invite";
export { Registration } from "./registration";
