import type { InviteView } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { prepareInvite, signInvitation } from "../invite";
import { instanceInvitesQuery } from "./list-invites";

export interface NewCode {
  invite: InviteView;
  /** The new invitation code, for the administrator to pass on by another channel (shown once). */
  code: string;
}

/**
 * POST /api/instance/invites/{id}/code: a new code for an invitee who lost theirs and has not
 * taken their key over yet. New temporary keys and code, made here, and a new signed invitation
 * where this administrator can sign (docs/protocol.md §13); the server deletes the old temporary
 * key and its transit envelope with it, so the old code opens nothing any more.
 */
export async function issueInviteCode(invite: InviteView): Promise<NewCode> {
  const prepared = await prepareInvite();
  const invitation = await signInvitation(invite.email ?? invite.phone ?? "", prepared, invite.id);
  const body = { public_key: prepared.public_key, transit: prepared.transit, ...(invitation ? { invitation } : {}) };
  return { invite: await call("POST /api/instance/invites/{id}/code", { params: { id: invite.id }, body }), code: prepared.code };
}

export function useIssueInviteCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueInviteCode,
    onSettled: () => queryClient.invalidateQueries({ queryKey: instanceInvitesQuery.queryKey }),
  });
}
