// Generated from functions/routes.ts by `npm run areas`: do not edit. The "drive" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as driveLoad } from "../api/drive/load";
import { handler as driveCreate } from "../api/drive/create";
import { handler as driveUpdate } from "../api/drive/update";
import { handler as driveDestroy } from "../api/drive/destroy";
import { handler as driveStartFile } from "../api/drive/start-file";
import { handler as driveCompleteFile } from "../api/drive/complete-file";
import { handler as driveDownloadFile } from "../api/drive/download-file";
import { handler as drivePermissions } from "../api/drive/permissions";
import { handler as drivePermit } from "../api/drive/permit";
import { handler as driveCanI } from "../api/drive/can-i";

export const handler = dispatch({
  "GET /api/drive/{id}": driveLoad,
  "POST /api/drive/{id}": driveCreate,
  "PATCH /api/drive/{id}/update/{rid}": driveUpdate,
  "DELETE /api/drive/{id}/destroy/{rid}": driveDestroy,
  "POST /api/drive/{id}/files": driveStartFile,
  "POST /api/drive/{id}/files/{fid}/complete": driveCompleteFile,
  "GET /api/drive/{id}/files/{fid}": driveDownloadFile,
  "GET /api/drive/items/{rid}/permissions": drivePermissions,
  "POST /api/drive/items/{rid}/permit": drivePermit,
  "GET /api/drive/items/{rid}/canI": driveCanI,
  "POST /api/drive/{id}/update/{rid}": driveUpdate,
  "POST /api/drive/{id}/destroy/{rid}": driveDestroy,
});
