import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";
import { withPickupViews } from "@sealwork/core/pickup/views";

/** One's conversations, with the creator's view of the pickups among them. */
export const handler = api("GET /api/users/{id}/conversations", async ({ actor, params }) => withPickupViews(await Conversation.list(actor, params.id)));
