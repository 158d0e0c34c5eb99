import { driveRoutes } from "@sealwork/contracts/drive";
import { DrivePermissions } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";
import "@sealwork/core/group/errors";

export const handler = api(driveRoutes, "POST /api/drive/items/{rid}/permit", ({ actor, params, body }) => DrivePermissions.permit(actor, params.rid, body), { invalid: "permit_invalid" });
