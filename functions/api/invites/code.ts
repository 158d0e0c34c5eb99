import { Invite } from "@sealwork/core/invite";
import { inviteRoutes } from "@sealwork/contracts/invites";
import { api } from "@sealwork/core/http/api";

export const handler = api(inviteRoutes, "POST /api/instance/invites/{id}/code", ({ actor, params, body }) => Invite.newCode(actor, params.id, body));
