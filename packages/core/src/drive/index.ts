export { Drive } from "./drive";
export { DrivePermissions } from "./permissions";
