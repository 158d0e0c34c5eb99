import { Registration } from "@sealwork/core/invite";
import { api } from "@sealwork/core/http/api";

export const handler = api("POST /api/verification/register", async ({ actor, body }) => {
  await Registration.sendRegistrationCode(actor, body.uid, body.contact);
  return { no_expiry: false };
});
