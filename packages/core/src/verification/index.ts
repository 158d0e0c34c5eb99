export { VerificationCode } from "./verification";
