import { Role } from "@sealwork/core/group/roles";
import { roleRoutes } from "@sealwork/contracts/roles";
import { api } from "@sealwork/core/http/api";

export const handler = api(roleRoutes, "POST /api/roles/{id}/unassign", ({ actor, params, body }) => Role.unassign(actor, params.id, body));
