import type { Attribution, Response } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { isGuest } from "../../lib/guest";
import { queryKeys } from "../../lib/query-keys";
import { useSession } from "../../lib/session";
import { type VersionOneConversation, versionOneConversations } from "./version-one";

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

/**
 * The signed-in user's version 1 conversations, read afresh when the caller mounts (the renewal
 * must not rely on a list from before): `data` once that answer is in.
 */
export function useVersionOneConversations(): { data: { conversations: VersionOneConversation[]; attribution: Attribution } | undefined; isError: boolean } {
  const session = useSession();
  const uid = session?.id ?? 0;
  const list = useQuery({ ...conversationsQuery(uid), enabled: uid !== 0, refetchOnMount: "always" });
  if (list.isError) return { data: undefined, isError: true };
  if (!list.data || !list.isFetchedAfterMount) return { data: undefined, isError: false };
  return { data: { conversations: versionOneConversations(list.data.conversations, uid), attribution: list.data.attribution }, isError: false };
}
