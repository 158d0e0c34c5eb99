import { Invite } from "@sealwork/core/invite";
import { api } from "@sealwork/core/http/api";

export const handler = api("GET /api/instance/invites", async ({ actor }) => ({ invites: await Invite.list(actor) }));
