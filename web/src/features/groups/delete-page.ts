import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** POST /api/pages/{id} with `_method: DELETE` (group administrators; never a reserved page). */
export function useDeletePage(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pageId: number) => call("DELETE /api/pages/{id}", { params: { id: pageId } }),
    onSuccess: (_, pageId) => {
      queryClient.removeQueries({ queryKey: queryKeys.groups.page(groupId, pageId) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.groups.one(groupId) });
    },
  });
}
