import { GroupMembers } from "@sealwork/core/group/members";
import { groupRoutes } from "@sealwork/contracts/groups";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupRoutes, "POST /api/groups/{id}/revokeMember", ({ actor, params, body }) => GroupMembers.revoke(actor, params.id, body));
