import { Conversation, api } from "@sealwork/core";

export const handler = api("POST /api/conversations/{id}/append", ({ caller, params, body }) => Conversation.append(caller, params.id, body));
