// Generated from functions/routes.ts by `npm run areas`: do not edit. The "keys" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as keypairsGet } from "../api/keypairs/get";
import { handler as keypairsCreate } from "../api/keypairs/create";
import { handler as keypairsTarget } from "../api/keypairs/target";
import { handler as keypairsGetOne } from "../api/keypairs/get-one";
import { handler as keypairsRecover } from "../api/keypairs/recover";
import { handler as backupSave } from "../api/backup/save";
import { handler as backupLoad } from "../api/backup/load";

export const handler = dispatch({
  "GET /api/keypairs": keypairsGet,
  "POST /api/keypairs": keypairsCreate,
  "GET /api/keypairs/target": keypairsTarget,
  "GET /api/keypairs/{id}": keypairsGetOne,
  "POST /api/keypairs/{id}/recover": keypairsRecover,
  "POST /api/backup/save": backupSave,
  "POST /api/backup/load": backupLoad,
});
