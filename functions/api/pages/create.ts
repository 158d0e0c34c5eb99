import { Page } from "@sealwork/core/group/pages";
import { pageRoutes } from "@sealwork/contracts/pages";
import { api } from "@sealwork/core/http/api";

export const handler = api(pageRoutes, "POST /api/pages", ({ actor, body }) => Page.create(actor, body));
