import { driveRoutes } from "@sealwork/contracts/drive";
import { DrivePermissions } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "GET /api/drive/items/{rid}/canI", ({ actor, params, query }) => DrivePermissions.canI(actor, params.rid, query));
