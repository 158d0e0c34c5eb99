import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { instanceInvitesQuery } from "./list-invites";

/** POST /api/instance/invites/{id}/resend: 30 more days and the email again. */
export function useResendInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call("POST /api/instance/invites/{id}/resend", { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceInvitesQuery.queryKey }),
  });
}
