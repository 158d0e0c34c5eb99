import { Invite } from "@sealwork/core/invite";
import { inviteRoutes } from "@sealwork/contracts/invites";
import { api } from "@sealwork/core/http/api";

export const handler = api(inviteRoutes, "GET /api/instance/invites", async ({ actor }) => ({ invites: await Invite.list(actor) }));
