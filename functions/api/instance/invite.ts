import { Invite } from "@sealwork/core/invite";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/instance/invite", ({ actor, body }) => Invite.create(actor, body));
