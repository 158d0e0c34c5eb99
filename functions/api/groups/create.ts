import { Group } from "@sealwork/core/group/group";
import { groupRoutes } from "@sealwork/contracts/groups";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupRoutes, "POST /api/groups", ({ actor, body }) => Group.create(actor, body));
