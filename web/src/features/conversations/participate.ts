import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { getUnlockedKeys } from "../../lib/unlocked-keys";
import { sealKeyForUser } from "./conversation-crypto";
import type { ConversationKeys } from "./load-conversation";
import { addSigned, adminSigned } from "./signed-changes";

/**
 * POST /api/conversations/{id}/participate: adds a person, sealing the conversation key for their
 * verified key. A conversation with a membership log adds them with a signed entry instead
 * (POST …/log: signed-changes.ts).
 */
export async function addParticipant(id: number, keys: ConversationKeys, uid: number) {
  const holder = getUnlockedKeys();
  if (keys.protocol === 2 && holder) return addSigned(id, holder, uid);
  const sealed = await sealKeyForUser(keys.key, uid);
  return call("POST /api/conversations/{id}/participate", { params: { id }, body: { participant: uid, sealed } });
}

/** The same route with `admin` or `unadmin`: the admin star (with a log, a signed `promote` or `demote` instead). */
export function setParticipantAdmin(id: number, uid: number, admin: boolean, keys?: ConversationKeys) {
  const holder = getUnlockedKeys();
  if (keys?.protocol === 2 && holder) return adminSigned(id, holder, uid, admin ? "promote" : "demote");
  return call("POST /api/conversations/{id}/participate", { params: { id }, body: admin ? { participant: uid, admin: true } : { participant: uid, unadmin: true } });
}

export function useAddParticipant(id: number, keys: ConversationKeys) {
  return useMutation({ mutationFn: (uid: number) => addParticipant(id, keys, uid) });
}

export function useSetParticipantAdmin(id: number, keys: ConversationKeys) {
  return useMutation({ mutationFn: ({ uid, admin }: { uid: number; admin: boolean }) => setParticipantAdmin(id, uid, admin, keys) });
}
