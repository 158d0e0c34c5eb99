import { driveRoutes } from "@sealwork/contracts/drive";
import { DriveFiles } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "POST /api/drive/{id}/files", ({ actor, params, body }) => DriveFiles.startFile(actor, params.id, body));
