import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";

export const handler = api(conversationRoutes, "GET /api/conversations/{id}", ({ actor, params, query }) => Conversation.load(actor, params.id, query));
