// Generated from functions/routes.ts by `npm run areas`: do not edit. The "pickups" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as pickupCreate } from "../api/pickup/create";
import { handler as pickupLookup } from "../api/pickup/lookup";
import { handler as pickupRecover } from "../api/pickup/recover";
import { handler as pickupDelete } from "../api/pickup/delete";

export const handler = dispatch({
  "POST /api/pickup": pickupCreate,
  "GET /api/pickup/{lookup}": pickupLookup,
  "POST /api/pickup/recover/{lookup}": pickupRecover,
  "DELETE /api/conversations/{id}": pickupDelete,
});
