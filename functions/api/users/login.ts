import { Login } from "@sealwork/core/user";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/users/{id}/login", ({ actor, params, body }) => Login.login(actor, params.id, body.password, body.totp_auth));
