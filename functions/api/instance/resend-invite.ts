import { Invite, api } from "@sealwork/core";

export const handler = api("POST /api/instance/invites/{id}/resend", ({ caller, params }) => Invite.resend(caller, params.id));
