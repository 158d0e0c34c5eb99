import type { Body } from "@sealwork/contracts";
import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { rememberLoginPassword } from "../../lib/login-password";
import { setSession } from "../../lib/session";

/** POST /api/users/register: sets the first password of an invited account and signs in. */
export function registerUser(body: Body<"POST /api/users/register">) {
  return call("POST /api/users/register", { body });
}

export function useRegisterUser() {
  return useMutation({
    mutationFn: registerUser,
    onSuccess: (session, body) => {
      rememberLoginPassword(session.id, body.password);
      setSession(session);
    },
  });
}
