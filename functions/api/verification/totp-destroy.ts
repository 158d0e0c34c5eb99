import { Totp } from "@sealwork/core/totp";
import { totpRoutes } from "@sealwork/contracts/totp";
import { api } from "@sealwork/core/http/api";

/** Switches one's own 2FA off with a current code or a recovery code. */
export const handler = api(totpRoutes, "POST /api/verification/totpDestroy", ({ actor, body }) => Totp.destroy(actor, body.totp_auth));
