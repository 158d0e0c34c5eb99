import { Conversation } from "@sealwork/core/conversation";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/conversations/{id}/unparticipate", ({ actor, params, body }) => Conversation.unparticipate(actor, params.id, body));
