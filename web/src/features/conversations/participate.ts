import type { Key } from "@sealwork/crypto";
import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { sealKeyForUser } from "./conversation-crypto";

/** POST /api/conversations/{id}/participate: adds a person, sealing the conversation key for their verified key. */
export async function addParticipant(id: number, key: Key, uid: number) {
  const sealed = await sealKeyForUser(key, uid);
  return call("POST /api/conversations/{id}/participate", { params: { id }, body: { participant: uid, sealed } });
}

/** The same route with `admin` or `unadmin`: the admin star. */
export function setParticipantAdmin(id: number, uid: number, admin: boolean) {
  return call("POST /api/conversations/{id}/participate", { params: { id }, body: admin ? { participant: uid, admin: true } : { participant: uid, unadmin: true } });
}

export function useAddParticipant(id: number, key: Key) {
  return useMutation({ mutationFn: (uid: number) => addParticipant(id, key, uid) });
}

export function useSetParticipantAdmin(id: number) {
  return useMutation({ mutationFn: ({ uid, admin }: { uid: number; admin: boolean }) => setParticipantAdmin(id, uid, admin) });
}
