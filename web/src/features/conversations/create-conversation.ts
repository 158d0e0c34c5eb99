import type { Body } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { newConversationKey } from "./conversation-crypto";
import { signedStart } from "./signed-changes";

export interface NewConversationInput {
  recipients: number[];
  title: string;
}

/**
 * POST /api/conversations/reserve, then POST /api/conversations with the conversation's
 * membership log (protocol v2, signed-changes.ts): a fresh conversation key, the author's `create`
 * and an `add` for every recipient (their verified key), the record committing to the key, a
 * signed copy for everyone, and the title encrypted under it, all bound to the reserved id.
 */
export async function createConversation(unlocked: UnlockedKeys, { recipients, title }: NewConversationInput) {
  const { id } = await call("POST /api/conversations/reserve");
  const key = await newConversationKey(id);
  const body: Body<"POST /api/conversations"> = await signedStart(unlocked, id, key, recipients, title.trim());
  return call("POST /api/conversations", { body });
}

export function useCreateConversation(unlocked: UnlockedKeys) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewConversationInput) => createConversation(unlocked, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() }),
  });
}
