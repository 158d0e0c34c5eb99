import { Totp, api } from "@sealwork/core";

/** {} starts a setup (QR code and secret); { totp_secret, totp_verify } finalizes it (recovery codes). */
export const handler = api("POST /api/verification/totpSetup", ({ caller, body }) =>
  body.totp_secret !== undefined && body.totp_verify !== undefined
    ? Totp.finalize(caller, body.totp_secret, body.totp_verify)
    : Totp.setup(caller),
);
