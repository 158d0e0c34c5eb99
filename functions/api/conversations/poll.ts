import { Conversation, api } from "@sealwork/core";

export const handler = api("GET /api/conversations/{id}/poll", ({ caller, params, query }) => Conversation.poll(caller, params.id, query.largest));
