import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("PATCH /api/conversations/{id}", ({ actor, params, body }) => Conversation.rename(actor, params.id, body));
