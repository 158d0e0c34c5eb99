import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";
import { Pickup } from "@sealwork/core/pickup";

/** One's conversations, with the creator's view of the pickups among them. */
export const handler = api("GET /api/users/{id}/conversations", async ({ actor, params }) => Pickup.withViews(await Conversation.list(actor, params.id)));
