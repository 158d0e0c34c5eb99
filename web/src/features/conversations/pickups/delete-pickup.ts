import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call, isApiError } from "../../../lib/api";
import { i18next } from "../../../lib/i18n";
import { queryKeys } from "../../../lib/query-keys";
import { forgetSecrets } from "./kept-secrets";
import "../i18n";

/** DELETE /api/conversations/{id}: the pickup with its messages and files (its author only). */
export function deletePickup(id: number) {
  return call("DELETE /api/conversations/{id}", { params: { id } });
}

/** Spec 000 §8, Pickup delete. */
export function deleteErrorText(error: unknown): string {
  return i18next.t(isApiError(error, 403) ? "conversations:pickups.errors.deleteForbidden" : "conversations:pickups.errors.deleteFailed");
}

export function useDeletePickup(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deletePickup(id),
    onSuccess: () => {
      forgetSecrets(id);
      return queryClient.invalidateQueries({ queryKey: queryKeys.conversations.lists() });
    },
  });
}
