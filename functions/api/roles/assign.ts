import { Role } from "@sealwork/core/group/roles";
import { roleRoutes } from "@sealwork/contracts/roles";
import { api } from "@sealwork/core/http/api";

export const handler = api(roleRoutes, "POST /api/roles/{id}/assign", ({ actor, params, body }) => Role.assign(actor, params.id, body));
