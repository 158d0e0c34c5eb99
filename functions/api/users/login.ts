import { Login } from "@sealwork/core/user";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "POST /api/users/{id}/login", ({ actor, params, body }) => Login.login(actor, params.id, body.password, body.totp_auth));
