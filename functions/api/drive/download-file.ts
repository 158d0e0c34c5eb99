import { driveRoutes } from "@sealwork/contracts/drive";
import { Drive } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "GET /api/drive/{id}/files/{fid}", ({ actor, params, query }) => Drive.downloadFile(actor, params.id, params.fid, query.thumb === "1"));
