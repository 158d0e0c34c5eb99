import { Identity } from "@sealwork/core/identity";
import { identityRoutes } from "@sealwork/contracts/identities";
import { api } from "@sealwork/core/http/api";

export const handler = api(identityRoutes, "POST /api/identities/{id}/legacy", ({ actor, params, body }) => Identity.certifyLegacy(actor, params.id, body));
