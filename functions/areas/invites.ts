// Generated from functions/routes.ts by `npm run areas`: do not edit. The "invites" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as invitesCreate } from "../api/invites/create";
import { handler as invitesList } from "../api/invites/list";
import { handler as invitesReserve } from "../api/invites/reserve";
import { handler as invitesResend } from "../api/invites/resend";
import { handler as invitesCode } from "../api/invites/code";

export const handler = dispatch({
  "POST /api/instance/invite": invitesCreate,
  "GET /api/instance/invites": invitesList,
  "POST /api/instance/invites/reserve": invitesReserve,
  "POST /api/instance/invites/{id}/resend": invitesResend,
  "POST /api/instance/invites/{id}/code": invitesCode,
});
