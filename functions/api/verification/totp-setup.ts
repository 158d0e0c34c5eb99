import { Totp } from "@sealwork/core/totp";
import { totpRoutes } from "@sealwork/contracts/totp";
import { api } from "@sealwork/core/http/api";

/** {} starts a setup (QR code and secret); { totp_secret, totp_verify } finalizes it (recovery codes). */
export const handler = api(totpRoutes, "POST /api/verification/totpSetup", ({ actor, body }) =>
  body.totp_secret !== undefined && body.totp_verify !== undefined
    ? Totp.finalize(actor, body.totp_secret, body.totp_verify)
    : Totp.setup(actor),
);
