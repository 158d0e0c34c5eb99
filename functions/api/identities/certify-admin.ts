import { Identity } from "@sealwork/core/identity";
import { identityRoutes } from "@sealwork/contracts/identities";
import { api } from "@sealwork/core/http/api";

export const handler = api(identityRoutes, "POST /api/identities/{id}/admin", ({ actor, params, body }) => Identity.certifyAdmin(actor, params.id, body));
