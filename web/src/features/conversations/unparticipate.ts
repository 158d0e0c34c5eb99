import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";

/** POST /api/conversations/{id}/unparticipate: removes a person (never oneself or the author). */
export function removeParticipant(id: number, uid: number) {
  return call("POST /api/conversations/{id}/unparticipate", { params: { id }, body: { unparticipant: uid } });
}

export function useRemoveParticipant(id: number) {
  return useMutation({ mutationFn: (uid: number) => removeParticipant(id, uid) });
}
