import { Conversation, api } from "@sealwork/core";

export const handler = api("POST /api/conversations", ({ caller, body }) => Conversation.create(caller, body));
