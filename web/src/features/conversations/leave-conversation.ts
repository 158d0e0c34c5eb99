import { useMutation } from "@tanstack/react-query";
import { getUnlockedKeys } from "../../lib/unlocked-keys";
import { leaveSigned } from "./signed-changes";

/**
 * Leaving a conversation with a membership log: one's signed `leave` entry (POST …/log). The
 * leaver makes no new key (they would know it); the next admin who opens the conversation does.
 */
export function leaveConversation(id: number) {
  const holder = getUnlockedKeys();
  if (!holder) return Promise.reject(new Error("the account keys are locked"));
  return leaveSigned(id, holder);
}

export function useLeaveConversation(id: number) {
  return useMutation({ mutationFn: () => leaveConversation(id) });
}
