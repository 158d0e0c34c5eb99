import { Totp, api } from "@sealwork/core";

/** An instance admin switches off another account's 2FA. */
export const handler = api("POST /api/verification/totpDestroyAdmin", ({ caller, body }) => Totp.destroyAsAdmin(caller, body.uid));
