import { Conversation } from "@sealwork/core/conversation";
import { conversationLogRoutes } from "@sealwork/contracts/conversation-logs";
import { api } from "@sealwork/core/http/api";

export const handler = api(conversationLogRoutes, "GET /api/conversations/{id}/log", ({ actor, params }) => Conversation.log(actor, params.id));
