import type { Key } from "@sealwork/crypto";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { encryptTitle } from "./conversation-crypto";

/** PATCH /api/conversations/{id}: the new title, encrypted under the conversation key (with a log: the current epoch's). */
export async function renameConversation(id: number, key: Key, title: string) {
  return call("PATCH /api/conversations/{id}", { params: { id }, body: { title: await encryptTitle(key, title) } });
}

export function useRenameConversation(id: number, key: Key) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (title: string) => renameConversation(id, key, title),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() }),
  });
}
