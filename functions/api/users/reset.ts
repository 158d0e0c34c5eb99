import { PasswordReset } from "@sealwork/core/user";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "POST /api/users/reset", ({ actor, body }) => PasswordReset.reset(actor, body));
