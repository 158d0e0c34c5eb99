import { Group } from "@sealwork/core/group/group";
import { groupRoutes } from "@sealwork/contracts/groups";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupRoutes, "PATCH /api/groups/{id}", ({ actor, params, body }) => Group.patch(actor, params.id, body));
