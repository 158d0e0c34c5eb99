import { Page } from "@sealwork/core/group/pages";
import { pageRoutes } from "@sealwork/contracts/pages";
import { api } from "@sealwork/core/http/api";

export const handler = api(pageRoutes, "GET /api/pages/{id}", ({ actor, params }) => Page.get(actor, params.id));
