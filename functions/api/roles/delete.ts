import { Role } from "@sealwork/core/group/roles";
import { roleRoutes } from "@sealwork/contracts/roles";
import { api } from "@sealwork/core/http/api";

export const handler = api(roleRoutes, "DELETE /api/roles/{id}", ({ actor, params }) => Role.remove(actor, params.id));
