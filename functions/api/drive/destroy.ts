import { driveRoutes } from "@sealwork/contracts/drive";
import { Drive } from "@sealwork/core/drive";
import { api } from "@sealwork/core/http/api";

export const handler = api(driveRoutes, "DELETE /api/drive/{id}/destroy/{rid}", ({ actor, params }) => Drive.destroy(actor, params.id, params.rid));
