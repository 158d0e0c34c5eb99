import { driveRoutes } from "@sealwork/contracts/drive";
import { DriveFiles } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "POST /api/drive/{id}/files/{fid}/complete", ({ actor, params, body }) => DriveFiles.completeFile(actor, params.id, params.fid, body));
