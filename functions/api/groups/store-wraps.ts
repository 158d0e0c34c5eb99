import { GroupKeys } from "@sealwork/core/group/keys";
import { groupKeyRoutes } from "@sealwork/contracts/group-keys";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupKeyRoutes, "POST /api/groups/{id}/wraps", ({ actor, params, body }) => GroupKeys.store(actor, params.id, body));
