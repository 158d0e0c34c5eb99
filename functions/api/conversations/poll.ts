import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";

export const handler = api(conversationRoutes, "GET /api/conversations/{id}/poll", ({ actor, params, query }) => Conversation.poll(actor, params.id, query.largest));
