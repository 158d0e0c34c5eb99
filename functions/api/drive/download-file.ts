import { driveRoutes } from "@sealwork/contracts/drive";
import { DriveFiles } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "GET /api/drive/{id}/files/{fid}", ({ actor, params, query }) => DriveFiles.downloadFile(actor, params.id, params.fid, query.thumb === "1"));
