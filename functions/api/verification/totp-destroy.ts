import { Totp, api } from "@sealwork/core";

/** Switches one's own 2FA off with a current code or a recovery code. */
export const handler = api("POST /api/verification/totpDestroy", ({ caller, body }) => Totp.destroy(caller, body.totp_auth));
