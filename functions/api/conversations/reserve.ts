import { Conversation, api } from "@sealwork/core";

export const handler = api("POST /api/conversations/reserve", ({ caller }) => Conversation.reserve(caller));
