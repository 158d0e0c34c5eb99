import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** POST /api/verification/totpSetup with {}: a new pending secret and its QR code. */
export async function startTotpSetup(): Promise<{ qr: string; secret: string }> {
  const answer = await call("POST /api/verification/totpSetup", { body: {} });
  if (!("qr" in answer)) throw new Error("totpSetup answered without a QR code");
  return answer;
}

/** POST /api/verification/totpSetup with the secret and a code: 2FA on, recovery codes once. */
export async function finalizeTotpSetup(input: { secret: string; code: string }): Promise<string[]> {
  const answer = await call("POST /api/verification/totpSetup", { body: { totp_secret: input.secret, totp_verify: input.code } });
  if (!("recovery" in answer)) throw new Error("totpSetup answered without recovery codes");
  return answer.recovery;
}

export function useStartTotpSetup() {
  return useMutation({ mutationFn: startTotpSetup });
}

export function useFinalizeTotpSetup(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: finalizeTotpSetup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.one(userId) }),
  });
}
