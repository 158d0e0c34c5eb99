import { Page } from "@sealwork/core/group/pages";
import { pageRoutes } from "@sealwork/contracts/pages";
import { api } from "@sealwork/core/http/api";
import "@sealwork/core/group/errors";

export const handler = api(pageRoutes, "POST /api/pages/{id}/permit", ({ actor, params, body }) => Page.permit(actor, params.id, body), { invalid: "permit_invalid" });
