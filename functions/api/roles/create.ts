import { Role } from "@sealwork/core/group/roles";
import { roleRoutes } from "@sealwork/contracts/roles";
import { api } from "@sealwork/core/http/api";

export const handler = api(roleRoutes, "POST /api/roles", ({ actor, body }) => Role.create(actor, body));
