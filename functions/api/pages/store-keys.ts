import { pageKeyRoutes } from "@sealwork/contracts/page-keys";
import { PageKeys } from "@sealwork/core/group/page-keys";
import { api } from "@sealwork/core/http/api";
import "@sealwork/core/group/errors";

export const handler = api(pageKeyRoutes, "POST /api/pages/{id}/keys", ({ actor, params, body }) => PageKeys.store(actor, params.id, body), { invalid: "page_key_invalid" });
