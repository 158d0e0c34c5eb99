import { Conversation, api } from "@sealwork/core";

export const handler = api("POST /api/conversations/{id}/unparticipate", ({ caller, params, body }) => Conversation.unparticipate(caller, params.id, body.unparticipant));
