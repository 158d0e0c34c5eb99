import { driveRoutes } from "@sealwork/contracts/drive";
import { DrivePermissions } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "POST /api/motes/{id}/permit", ({ actor, params, body }) => DrivePermissions.permit(actor, params.id, body), { invalid: "permit_invalid" });
