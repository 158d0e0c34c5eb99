export { Identity } from "./identity";
export { IdentityRecords, SETUP_USER_ID } from "./records";
export { KeyReset } from "./reset";
