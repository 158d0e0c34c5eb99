import { Invite } from "@sealwork/core/invite";
import { inviteRoutes } from "@sealwork/contracts/invites";
import { api } from "@sealwork/core/http/api";

export const handler = api(inviteRoutes, "POST /api/instance/invite", ({ actor, body }) => Invite.create(actor, body));
