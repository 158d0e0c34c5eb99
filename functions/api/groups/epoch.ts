import { GroupKeys } from "@sealwork/core/group/keys";
import { groupKeyRoutes } from "@sealwork/contracts/group-keys";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupKeyRoutes, "GET /api/groups/{id}/epochs/{epoch}", ({ actor, params }) => GroupKeys.epoch(actor, params.id, params.epoch));
