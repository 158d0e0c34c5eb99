import type { InviteView } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { prepareInvite, signInvitation } from "../invite";
import { instanceInvitesQuery } from "./list-invites";

export interface Resent {
  invite: InviteView;
  /** A new invitation code, when the invitation was issued again (it had expired). */
  code: string | null;
}

/**
 * POST /api/instance/invites/{id}/resend: the email again (and 30 more days for a pending
 * unsigned one). An expired invitation lost its temporary key with its transit envelope, so it is
 * issued again: new temporary keys and code, made here, signed where this administrator can sign
 * (docs/protocol.md §13); the new code is for the administrator to pass on.
 */
export async function resendInvite(invite: InviteView): Promise<Resent> {
  const params = { id: invite.id };
  if (invite.status !== "expired") return { invite: await call("POST /api/instance/invites/{id}/resend", { params }), code: null };
  const prepared = await prepareInvite();
  const invitation = await signInvitation(invite.email ?? invite.phone ?? "", prepared, invite.id);
  const body = { public_key: prepared.public_key, transit: prepared.transit, ...(invitation ? { invitation } : {}) };
  return { invite: await call("POST /api/instance/invites/{id}/resend", { params, body }), code: prepared.code };
}

export function useResendInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceInvitesQuery.queryKey }),
  });
}
