import { GroupConversation } from "@sealwork/core/group/messages";
import { groupMessageRoutes } from "@sealwork/contracts/group-messages";
import { api } from "@sealwork/core/http/api";

export const handler = api(groupMessageRoutes, "POST /api/groups/{id}/conversation/append", ({ actor, params, body }) => GroupConversation.append(actor, params.id, body));
