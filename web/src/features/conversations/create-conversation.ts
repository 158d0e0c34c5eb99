import type { Body } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { encryptTitle, newConversationKey, sealKeyForPublic, sealKeyForUser } from "./conversation-crypto";

export interface NewConversationInput {
  recipients: number[];
  title: string;
}

/**
 * POST /api/conversations/reserve, then POST /api/conversations: a fresh conversation key sealed for the author (their own public key)
 * and for every recipient (their verified key), and the title encrypted under it, all bound to the reserved id.
 */
export async function createConversation(unlocked: UnlockedKeys, { recipients, title }: NewConversationInput) {
  const { id } = await call("POST /api/conversations/reserve");
  const key = await newConversationKey(id);
  const sealed_keys = await Promise.all([
    sealKeyForPublic(key, unlocked.publicKeys.encryptPublic, id).then((sealed) => ({ user_id: unlocked.uid, sealed })),
    ...recipients.map(async (uid) => ({ user_id: uid, sealed: await sealKeyForUser(key, uid, id) })),
  ]);
  const body: Body<"POST /api/conversations"> = {
    id,
    recipient: recipients.length === 1 ? recipients[0]! : recipients,
    sealed_keys,
    ...(title.trim() ? { title: await encryptTitle(key, title.trim(), id) } : {}),
  };
  return call("POST /api/conversations", { body });
}

export function useCreateConversation(unlocked: UnlockedKeys) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewConversationInput) => createConversation(unlocked, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() }),
  });
}
