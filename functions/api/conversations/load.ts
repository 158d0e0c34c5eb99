import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/conversations/{id}", ({ actor, params, query }) => Conversation.load(actor, params.id, query));
