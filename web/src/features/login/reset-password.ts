import type { Body } from "@sealwork/contracts";
import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { setSession } from "../../lib/session";

/** POST /api/verification/forgot: a 6-digit code to the account's contact (the answer never says whether it went). */
export function sendResetCode(body: Body<"POST /api/verification/forgot">) {
  return call("POST /api/verification/forgot", { body });
}

export function useSendResetCode() {
  return useMutation({ mutationFn: sendResetCode });
}

/** POST /api/users/reset: the code and a new password; signs in, and every older token stops. */
export function resetPassword(body: Body<"POST /api/users/reset">) {
  return call("POST /api/users/reset", { body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, onSuccess: setSession });
}
