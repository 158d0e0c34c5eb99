import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { api } from "@sealwork/core/http/api";
import { withPickupViews } from "@sealwork/core/pickup/views";

/** One's conversations, with the creator's view of the pickups among them. */
export const handler = api(conversationRoutes, "GET /api/users/{id}/conversations", async ({ actor, params, query }) => withPickupViews(await Conversation.list(actor, params.id, query)));
