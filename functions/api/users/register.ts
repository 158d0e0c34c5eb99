import { Registration } from "@sealwork/core/invite";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "POST /api/users/register", ({ actor, body }) => Registration.register(actor, body), {
  invalid: "registration_invalid",
});
