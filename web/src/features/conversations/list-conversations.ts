import type { Response } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { isGuest } from "../../lib/guest";
import { queryKeys } from "../../lib/query-keys";
import { useSession } from "../../lib/session";

export type ConversationList = Response<"GET /api/users/{id}/conversations">;

export const conversationsQuery = (uid: number) =>
  queryOptions({
    queryKey: queryKeys.conversations.list(uid),
    queryFn: ({ signal }) => call("GET /api/users/{id}/conversations", { params: { id: uid }, signal }),
  });

/** GET /api/users/{id}/conversations: the signed-in user's conversations, newest first (members only: a guest has none). */
export function useConversations() {
  const session = useSession();
  return useQuery({ ...conversationsQuery(session?.id ?? 0), enabled: session !== null && !isGuest(session) });
}
