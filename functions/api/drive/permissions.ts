import { driveRoutes } from "@sealwork/contracts/drive";
import { DrivePermissions } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "GET /api/drive/items/{rid}/permissions", ({ actor, params }) => DrivePermissions.permissions(actor, params.rid));
