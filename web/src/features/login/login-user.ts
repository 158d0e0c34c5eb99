import { notifications } from "@mantine/notifications";
import type { Body, Session } from "@sealwork/contracts";
import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { i18next } from "../../lib/i18n";
import { rememberLoginPassword } from "../../lib/login-password";
import { setSession } from "../../lib/session";
import "./i18n";

export type LoginInput = { id: number } & Body<"POST /api/users/{id}/login">;

/** POST /api/users/{id}/login: password and, when 2FA is on, the 6-digit code. */
export function loginUser({ id, ...body }: LoginInput) {
  return call("POST /api/users/{id}/login", { params: { id }, body });
}

function signIn(session: Session) {
  setSession(session);
  // Spec 000 §8: a used 2FA recovery code raises a warning that outlives the login screen.
  if (session.recoveryTOTP) {
    notifications.show({ color: "yellow", message: i18next.t("login:recoveryWarning"), autoClose: false });
  }
}

export function useLoginUser() {
  return useMutation({
    mutationFn: loginUser,
    onSuccess: (session, input) => {
      // For the key popup only: a secure code chosen next must not be this password (issue 11, item 9).
      rememberLoginPassword(session.id, input.password);
      signIn(session);
    },
  });
}
