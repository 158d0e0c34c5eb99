import { User, api } from "@sealwork/core";

export const handler = api("POST /api/users/register", ({ caller, body }) => User.register(caller, body), {
  invalid: "registration_invalid",
});
