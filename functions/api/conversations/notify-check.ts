import { Conversation, api } from "@sealwork/core";

/** 204 when nothing changed since `previous`; else the conversations with news. */
export const handler = api("GET /api/notify/check", ({ caller, query }) => Conversation.check(caller, query.previous));
