// Generated from functions/routes.ts by `npm run areas`: do not edit. The "users" area's
// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.
import { dispatch } from "../dispatch";
import { handler as usersLookup } from "../api/users/lookup";
import { handler as verificationRegister } from "../api/verification/register";
import { handler as usersRegister } from "../api/users/register";
import { handler as verificationForgot } from "../api/verification/forgot";
import { handler as usersReset } from "../api/users/reset";
import { handler as usersLogin } from "../api/users/login";
import { handler as usersGet } from "../api/users/get";
import { handler as usersUpdate } from "../api/users/update";
import { handler as verificationTotpSetup } from "../api/verification/totp-setup";
import { handler as verificationTotpDestroy } from "../api/verification/totp-destroy";
import { handler as verificationTotpDestroyAdmin } from "../api/verification/totp-destroy-admin";

export const handler = dispatch({
  "GET /api/users": usersLookup,
  "POST /api/verification/register": verificationRegister,
  "POST /api/users/register": usersRegister,
  "POST /api/verification/forgot": verificationForgot,
  "POST /api/users/reset": usersReset,
  "POST /api/users/{id}/login": usersLogin,
  "GET /api/users/{id}": usersGet,
  "PATCH /api/users/{id}": usersUpdate,
  "POST /api/verification/totpSetup": verificationTotpSetup,
  "POST /api/verification/totpDestroy": verificationTotpDestroy,
  "POST /api/verification/totpDestroyAdmin": verificationTotpDestroyAdmin,
  "POST /api/users/{id}": usersUpdate,
});
