import { driveRoutes } from "@sealwork/contracts/drive";
import { Drive } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "PATCH /api/drive/{id}/update/{rid}", ({ actor, params, body }) => Drive.update(actor, params.id, params.rid, body));
