import { Invite, api } from "@sealwork/core";

export const handler = api("POST /api/instance/invite", ({ caller, body }) => Invite.create(caller, body));
