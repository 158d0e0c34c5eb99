export { Identity } from "./identity";
export { IdentityRecords, SETUP_USER_ID } from "./records";
