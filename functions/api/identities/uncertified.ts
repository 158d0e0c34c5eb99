import { Identity } from "@sealwork/core/identity";
import { identityRoutes } from "@sealwork/contracts/identities";
import { api } from "@sealwork/core/http/api";

export const handler = api(identityRoutes, "GET /api/identities/uncertified", ({ actor }) => Identity.uncertified(actor));
