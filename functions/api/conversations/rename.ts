import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";

export const handler = api(conversationRoutes, "PATCH /api/conversations/{id}", ({ actor, params, body }) => Conversation.rename(actor, params.id, body));
