import { Conversation, api } from "@sealwork/core";

/** Hides the conversation from the caller's lists until a newer message arrives. */
export const handler = api("POST /api/conversations/{id}/archive", ({ caller, params }) => Conversation.archive(caller, params.id));
