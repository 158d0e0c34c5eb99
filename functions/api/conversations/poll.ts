import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/conversations/{id}/poll", ({ actor, params, query }) => Conversation.poll(actor, params.id, query.largest));
