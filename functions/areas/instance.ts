// Generated from functions/routes.ts by `npm run areas`: do not edit. The "instance" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as health } from "../api/health";
import { handler as instanceInfo } from "../api/instance/info";
import { handler as instanceSetup } from "../api/instance/setup";
import { handler as instanceUsers } from "../api/instance/users";
import { handler as instanceDisableUser } from "../api/instance/disable-user";
import { handler as instanceEnableUser } from "../api/instance/enable-user";

export const handler = dispatch({
  "GET /api/health": health,
  "GET /api/instance": instanceInfo,
  "POST /api/instance/setup": instanceSetup,
  "GET /api/instance/users": instanceUsers,
  "POST /api/instance/users/{id}/disable": instanceDisableUser,
  "POST /api/instance/users/{id}/enable": instanceEnableUser,
});
