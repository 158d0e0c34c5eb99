import { Page } from "@sealwork/core/group/pages";
import { pageRoutes } from "@sealwork/contracts/pages";
import { api } from "@sealwork/core/http/api";
import "@sealwork/core/group/errors";

export const handler = api(pageRoutes, "PATCH /api/pages/{id}", ({ actor, params, body }) => Page.patch(actor, params.id, body), { invalid: "page_menu_invalid" });
