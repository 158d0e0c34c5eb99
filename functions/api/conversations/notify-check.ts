import { Conversation } from "@sealwork/core/conversation";
import { conversationRoutes } from "@sealwork/contracts/conversations";
import { NO_CONTENT, api } from "@sealwork/core/http/api";
import { withPickupViews } from "@sealwork/core/pickup/views";

/** 204 when nothing changed since `previous`; else the conversations with news. */
export const handler = api(conversationRoutes, "GET /api/notify/check", async ({ actor, query }) => {
  const news = await Conversation.check(actor, query.previous);
  return news ? withPickupViews(news) : NO_CONTENT;
});
