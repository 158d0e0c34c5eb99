import { Registration } from "@sealwork/core/invite";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";
import "@sealwork/core/user/errors";

export const handler = api(userRoutes, "POST /api/users/register", ({ actor, body }) => Registration.register(actor, body), {
  invalid: "registration_invalid",
});
