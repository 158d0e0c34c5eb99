import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { CardFiles } from "@sealwork/core/mote";

export const handler = api(moteRoutes, "GET /api/motes/files/{fid}", ({ actor, params, query }) => CardFiles.downloadFile(actor, params.fid, query.thumb === "1"));
