import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";

/** One's own copy of a version 1 conversation's key, sealed again for the key one renewed to. */
export const handler = api(conversationRoutes, "POST /api/conversations/{id}/key", ({ actor, params, body }) => Conversation.resealOwnKey(actor, params.id, body));
