import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/conversations/{id}/participate", ({ actor, params, body }) => Conversation.participate(actor, params.id, body));
