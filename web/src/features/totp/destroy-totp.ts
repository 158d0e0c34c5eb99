import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** POST /api/verification/totpDestroy: 2FA off, with a current code or a recovery code. */
export function destroyTotp(totpAuth: string) {
  return call("POST /api/verification/totpDestroy", { body: { totp_auth: totpAuth } });
}

export function useDestroyTotp(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: destroyTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users.one(userId) }),
  });
}
