import { GroupConversation } from "@sealwork/core/group/messages";
import { groupMessageRoutes } from "@sealwork/contracts/group-messages";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupMessageRoutes, "GET /api/groups/{id}/conversation", ({ actor, params, query }) => GroupConversation.load(actor, params.id, query));
