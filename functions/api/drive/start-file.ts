import { driveRoutes } from "@sealwork/contracts/drive";
import { Drive } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "POST /api/drive/{id}/files", ({ actor, params, body }) => Drive.startFile(actor, params.id, body));
