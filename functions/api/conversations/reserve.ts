import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/conversations/reserve", ({ actor }) => Conversation.reserve(actor));
