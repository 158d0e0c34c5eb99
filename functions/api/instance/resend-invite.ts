import { Invite } from "@sealwork/core/invite";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/instance/invites/{id}/resend", ({ actor, params }) => Invite.resend(actor, params.id));
