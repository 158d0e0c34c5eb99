import { Page } from "@sealwork/core/group/pages";
import { pageRoutes } from "@sealwork/contracts/pages";
import { api } from "@sealwork/core/http/api";

export const handler = api(pageRoutes, "DELETE /api/pages/{id}", ({ actor, params }) => Page.remove(actor, params.id));
