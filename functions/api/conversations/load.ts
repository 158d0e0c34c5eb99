import { Conversation, api } from "@sealwork/core";

export const handler = api("GET /api/conversations/{id}", ({ caller, params, query }) => Conversation.load(caller, params.id, query));
