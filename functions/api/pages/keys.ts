import { pageKeyRoutes } from "@sealwork/contracts/page-keys";
import { PageKeys } from "@sealwork/core/group/page-keys";
import { api } from "@sealwork/core/http/api";

export const handler = api(pageKeyRoutes, "GET /api/pages/{id}/keys", ({ actor, params }) => PageKeys.mine(actor, params.id));
