import type { Body } from "@sealwork/contracts";
import { useMutation } from "@tanstack/react-query";
import { call } from "../../lib/api";

/** POST /api/verification/register: emails a 6-digit code to finish a pending registration. */
export function sendVerification(body: Body<"POST /api/verification/register">) {
  return call("POST /api/verification/register", { body });
}

export function useSendVerification() {
  return useMutation({ mutationFn: sendVerification });
}
