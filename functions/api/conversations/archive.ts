import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

/** Hides the conversation from the actor's lists until a newer message arrives. */
export const handler = api("POST /api/conversations/{id}/archive", ({ actor, params }) => Conversation.archive(actor, params.id));
