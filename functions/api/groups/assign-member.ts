import { GroupMembers } from "@sealwork/core/group/members";
import { groupRoutes } from "@sealwork/contracts/groups";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupRoutes, "POST /api/groups/{id}/assignMember", ({ actor, params, body }) => GroupMembers.assign(actor, params.id, body));
