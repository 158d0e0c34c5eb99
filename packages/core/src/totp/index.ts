export { Totp } from "./totp";
