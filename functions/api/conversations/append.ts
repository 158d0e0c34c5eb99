import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/conversations/{id}/append", ({ actor, params, body }) => Conversation.append(actor, params.id, body));
