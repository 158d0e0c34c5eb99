import type { Body } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { setLoginNotice } from "../../lib/login-state";
import { clearSession, getSession, updateSession } from "../../lib/session";
import { instanceUsersQuery } from "./list-users";

export type UserChanges = Body<"PATCH /api/users/{id}">;

/** PATCH /api/users/{id} as an administrator: name, email or a new password (no old one). */
export function updateUser(id: number, body: UserChanges) {
  return call("PATCH /api/users/{id}", { params: { id }, body });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserChanges }) => updateUser(id, body),
    onSuccess: ({ reset, user }) => {
      void queryClient.invalidateQueries({ queryKey: instanceUsersQuery.queryKey });
      // An administrator editing their own account is subject to the same rules as in settings.
      if (user.id !== getSession()?.id) return;
      if (reset) {
        setLoginNotice("passwordChanged");
        clearSession();
      } else {
        updateSession({ name: user.name, email: user.email, phone: user.phone });
      }
    },
  });
}
