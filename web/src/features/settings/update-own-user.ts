import type { Body } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { setLoginNotice } from "../../lib/login-state";
import { clearSession, updateSession } from "../../lib/session";
import { ownUserQuery } from "./get-own-user";

export type OwnUserChanges = Body<"PATCH /api/users/{id}">;

/** PATCH /api/users/{id} on one's own account: name, or password with the old one. */
export function updateOwnUser(id: number, body: OwnUserChanges) {
  return call("PATCH /api/users/{id}", { params: { id }, body });
}

export function useUpdateOwnUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OwnUserChanges) => updateOwnUser(id, body),
    onSuccess: ({ reset, user }) => {
      if (reset) {
        // The server has retired every token of this account: sign in again with the new password.
        setLoginNotice("passwordChanged");
        clearSession();
        return;
      }
      queryClient.setQueryData(ownUserQuery(id).queryKey, user);
      updateSession({ name: user.name, email: user.email, phone: user.phone });
    },
  });
}
