import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { instanceUsersQuery } from "./list-users";

/**
 * POST /api/instance/users/{id}/disable or /enable: an administrator stops an account (its tokens
 * stop working at once, it cannot log in) or lets it in again.
 */
export function setAccountDisabled({ id, disabled }: { id: number; disabled: boolean }) {
  const params = { id };
  return disabled ? call("POST /api/instance/users/{id}/disable", { params }) : call("POST /api/instance/users/{id}/enable", { params });
}

export function useSetAccountDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAccountDisabled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: instanceUsersQuery.queryKey }),
  });
}
