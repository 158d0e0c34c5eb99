import type { Body } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { instanceQuery } from "../../lib/instance";
import { rememberLoginPassword } from "../../lib/login-password";
import { setSession } from "../../lib/session";

/** POST /api/instance/setup: creates the first administrator with the one-time token. */
export function setupInstance(body: Body<"POST /api/instance/setup">) {
  return call("POST /api/instance/setup", { body });
}

export function useSetupInstance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setupInstance,
    onSuccess: (session, body) => {
      rememberLoginPassword(session.id, body.password);
      setSession(session);
      void queryClient.invalidateQueries({ queryKey: instanceQuery.queryKey });
    },
  });
}
