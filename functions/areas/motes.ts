// Generated from functions/routes.ts by `npm run areas`: do not edit. The "motes" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as motesCreate } from "../api/motes/create";
import { handler as motesList } from "../api/motes/list";
import { handler as motesMultipatch } from "../api/motes/multipatch";
import { handler as motesRelationMotes } from "../api/motes/relation-motes";
import { handler as motesBestPages } from "../api/motes/best-pages";
import { handler as motesStartFile } from "../api/motes/start-file";
import { handler as motesCompleteFile } from "../api/motes/complete-file";
import { handler as motesDownloadFile } from "../api/motes/download-file";
import { handler as motesGet } from "../api/motes/get";
import { handler as motesChange } from "../api/motes/change";
import { handler as motesCanI } from "../api/motes/can-i";
import { handler as motesComment } from "../api/motes/comment";
import { handler as motesDeleteComment } from "../api/motes/delete-comment";
import { handler as motesResealComments } from "../api/motes/reseal-comments";

export const handler = dispatch({
  "POST /api/motes": motesCreate,
  "GET /api/motes": motesList,
  "PATCH /api/motes/multipatch": motesMultipatch,
  "GET /api/motes/relationMotes": motesRelationMotes,
  "GET /api/pages/best": motesBestPages,
  "POST /api/motes/files": motesStartFile,
  "POST /api/motes/files/{fid}/complete": motesCompleteFile,
  "GET /api/motes/files/{fid}": motesDownloadFile,
  "GET /api/motes/{id}": motesGet,
  "PATCH /api/motes/{id}": motesChange,
  "DELETE /api/motes/{id}": motesChange,
  "GET /api/motes/{id}/canI": motesCanI,
  "POST /api/motes/{id}/comment": motesComment,
  "POST /api/motes/{id}/comment/delete": motesDeleteComment,
  "POST /api/motes/{id}/comment/reseal": motesResealComments,
  "POST /api/motes/multipatch": motesMultipatch,
  "POST /api/motes/{id}": motesChange,
});
