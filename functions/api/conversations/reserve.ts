import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";

export const handler = api(conversationRoutes, "POST /api/conversations/reserve", ({ actor }) => Conversation.reserve(actor));
