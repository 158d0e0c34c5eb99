import { Conversation, api } from "@sealwork/core";

export const handler = api("GET /api/users/{id}/conversations", ({ caller, params }) => Conversation.list(caller, params.id));
