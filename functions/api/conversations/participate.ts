import { Conversation, api } from "@sealwork/core";

export const handler = api("POST /api/conversations/{id}/participate", ({ caller, params, body }) => Conversation.participate(caller, params.id, body));
