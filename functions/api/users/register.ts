import { Registration } from "@sealwork/core/invite";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/users/register", ({ actor, body }) => Registration.register(actor, body), {
  invalid: "registration_invalid",
});
