import { User, api } from "@sealwork/core";

export const handler = api("POST /api/users/{id}/login", ({ caller, params, body }) => User.login(caller, params.id, body.password, body.totp_auth));
