import type { Query, Response } from "@sealwork/contracts";
import { call } from "../../lib/api";

export type ConversationPage = Response<"GET /api/conversations/{id}">;

/**
 * GET /api/conversations/{id}: 50 messages, oldest first; `before` pages back, `after` forward,
 * `meta: "1"` adds the conversation itself. Loading records the visit (the unread dot goes).
 */
export function loadConversation(id: number, query: Query<"GET /api/conversations/{id}"> = {}, signal?: AbortSignal): Promise<ConversationPage> {
  return call("GET /api/conversations/{id}", { params: { id }, query, signal });
}
