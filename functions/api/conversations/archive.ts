import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";

/** Hides the conversation from the actor's lists until a newer message arrives. */
export const handler = api(conversationRoutes, "POST /api/conversations/{id}/archive", ({ actor, params }) => Conversation.archive(actor, params.id));
