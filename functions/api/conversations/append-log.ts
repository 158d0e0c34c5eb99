import { Conversation } from "@sealwork/core/conversation";
import { conversationLogRoutes } from "@sealwork/contracts/conversation-logs";
import { api } from "@sealwork/core/http/api";

export const handler = api(conversationLogRoutes, "POST /api/conversations/{id}/log", ({ actor, params, body }) => Conversation.appendLog(actor, params.id, body));
