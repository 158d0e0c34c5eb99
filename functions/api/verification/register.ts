import { User, api } from "@sealwork/core";

export const handler = api("POST /api/verification/register", async ({ caller, body }) => {
  await User.sendRegistrationCode(caller, body.uid, body.contact);
  return { no_expiry: false };
});
