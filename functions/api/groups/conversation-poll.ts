import { GroupConversation } from "@sealwork/core/group/messages";
import { groupMessageRoutes } from "@sealwork/contracts/group-messages";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupMessageRoutes, "GET /api/groups/{id}/conversation/poll", ({ actor, params, query }) => GroupConversation.poll(actor, params.id, query.largest));
