import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { instanceUsersQuery } from "./list-users";

/** POST /api/verification/totpDestroyAdmin: an administrator switches off a user's 2FA. */
export function switchOffTotp(uid: number) {
  return call("POST /api/verification/totpDestroyAdmin", { body: { uid } });
}

export function useSwitchOffTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchOffTotp,
    onSuccess: (_answer, uid) => {
      void queryClient.invalidateQueries({ queryKey: instanceUsersQuery.queryKey });
      // The administrator's own settings, when it was their own account.
      void queryClient.invalidateQueries({ queryKey: queryKeys.users.one(uid) });
    },
  });
}
