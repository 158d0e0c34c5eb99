import { Invite, api } from "@sealwork/core";

export const handler = api("GET /api/instance/invites", async ({ caller }) => ({ invites: await Invite.list(caller) }));
