import { Totp } from "@sealwork/core/totp";
import { totpRoutes } from "@sealwork/contracts/totp";
import { api } from "@sealwork/core/http/api";

/** An instance admin switches off another account's 2FA. */
export const handler = api(totpRoutes, "POST /api/verification/totpDestroyAdmin", ({ actor, body }) => Totp.destroyAsAdmin(actor, body.uid));
