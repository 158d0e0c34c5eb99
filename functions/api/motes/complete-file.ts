import { moteRoutes } from "@sealwork/contracts/motes";
import { api } from "@sealwork/core/http/api";
import { CardFiles } from "@sealwork/core/mote";

export const handler = api(moteRoutes, "POST /api/motes/files/{fid}/complete", ({ actor, params, body }) => CardFiles.completeFile(actor, params.fid, body));
