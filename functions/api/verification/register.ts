import { Registration } from "@sealwork/core/invite";
import { userRoutes } from "@sealwork/contracts/users";
import { api } from "@sealwork/core/http/api";

export const handler = api(userRoutes, "POST /api/verification/register", async ({ actor, body }) => {
  await Registration.sendRegistrationCode(actor, body.uid, body.contact);
  return { no_expiry: false };
});
