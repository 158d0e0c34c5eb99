import { Role } from "@sealwork/core/group/roles";
import { groupRoutes } from "@sealwork/contracts/groups";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupRoutes, "GET /api/groups/{id}/members", ({ actor, params }) => Role.membersPage(actor, params.id));
