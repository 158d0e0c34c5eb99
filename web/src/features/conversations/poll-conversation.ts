import { call } from "../../lib/api";
import { POLL_TIMEOUT_MS } from "./poll-backoff";

/** GET /api/conversations/{id}/poll?largest=: whether a message newer than `largest` exists (4 s timeout). */
export async function pollConversation(id: number, largest: number, signal: AbortSignal): Promise<boolean> {
  const reply = await call("GET /api/conversations/{id}/poll", {
    params: { id },
    query: { largest },
    signal: AbortSignal.any([signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]),
  });
  return reply.has_new;
}
