import { PasswordReset } from "@sealwork/core/user";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "POST /api/verification/forgot", ({ actor, body }) => PasswordReset.request(actor, body.uid, body.contact));
