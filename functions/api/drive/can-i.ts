import { driveRoutes } from "@sealwork/contracts/drive";
import { DrivePermissions } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "GET /api/motes/{id}/canI", ({ actor, params, query }) => DrivePermissions.canI(actor, params.id, query));
