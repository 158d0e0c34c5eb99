import { Conversation, api } from "@sealwork/core";

export const handler = api("PATCH /api/conversations/{id}", ({ caller, params, body }) => Conversation.rename(caller, params.id, body.title));
