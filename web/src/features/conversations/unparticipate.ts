import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { getUnlockedKeys } from "../../lib/unlocked-keys";
import type { ConversationKeys } from "./load-conversation";
import { removeSigned } from "./signed-changes";

/**
 * POST /api/conversations/{id}/unparticipate: removes a person (never oneself or the author). With
 * a membership log, a signed `remove` and the next epoch (a new key for everyone who stays, the
 * title sealed anew): POST …/log (signed-changes.ts).
 */
export function removeParticipant(id: number, keys: ConversationKeys, uid: number, title: string | null) {
  const holder = getUnlockedKeys();
  if (keys.protocol === 2 && holder) return removeSigned(id, holder, uid, title);
  return call("POST /api/conversations/{id}/unparticipate", { params: { id }, body: { unparticipant: uid } });
}

export function useRemoveParticipant(id: number, keys: ConversationKeys, title: string | null) {
  return useMutation({ mutationFn: (uid: number) => removeParticipant(id, keys, uid, title) });
}
