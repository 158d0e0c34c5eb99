import { KeyReset } from "@sealwork/core/identity";
import { identityRoutes } from "@sealwork/contracts/identities";
import { api } from "@sealwork/core/http/api";

export const handler = api(identityRoutes, "POST /api/identities/{id}/reset", ({ actor, params, body }) => KeyReset.make(actor, params.id, body));
