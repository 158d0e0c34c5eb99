// Generated from functions/routes.ts by `npm run areas`: do not edit. The "identities" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as identitiesAnchors } from "../api/identities/anchors";
import { handler as identitiesInvitation } from "../api/identities/invitation";
import { handler as identitiesPins } from "../api/identities/pins";
import { handler as identitiesSavePins } from "../api/identities/save-pins";
import { handler as identitiesUncertified } from "../api/identities/uncertified";
import { handler as identitiesGet } from "../api/identities/get";
import { handler as identitiesPublish } from "../api/identities/publish";
import { handler as identitiesCertifyAdmin } from "../api/identities/certify-admin";
import { handler as identitiesCertifyLegacy } from "../api/identities/certify-legacy";
import { handler as identitiesReset } from "../api/identities/reset";
import { handler as identitiesLegacyRule } from "../api/identities/legacy-rule";

export const handler = dispatch({
  "GET /api/identities/anchors": identitiesAnchors,
  "GET /api/identities/invitation": identitiesInvitation,
  "GET /api/identities/pins": identitiesPins,
  "PUT /api/identities/pins": identitiesSavePins,
  "GET /api/identities/uncertified": identitiesUncertified,
  "GET /api/identities/{id}": identitiesGet,
  "POST /api/identities": identitiesPublish,
  "POST /api/identities/{id}/admin": identitiesCertifyAdmin,
  "POST /api/identities/{id}/legacy": identitiesCertifyLegacy,
  "POST /api/identities/{id}/reset": identitiesReset,
  "POST /api/identities/legacy-rule": identitiesLegacyRule,
});
