export { Drive } from "./drive";
export { DrivePermissions } from "./permissions";
export { DriveFiles } from "./files";
