import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** POST /api/conversations/{id}/archive: gone from one's own lists until a newer message. */
export function archiveConversation(id: number) {
  return call("POST /api/conversations/{id}/archive", { params: { id } });
}

export function useArchiveConversation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => archiveConversation(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() }),
  });
}
