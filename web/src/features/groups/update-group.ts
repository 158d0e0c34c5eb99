import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** PATCH /api/groups/{id} (group administrators): the options as JSON text; only the keys sent change. */
export function useUpdateGroup(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: { currencyCodes?: string[]; startpage?: number | null }) =>
      call("PATCH /api/groups/{id}", { params: { id: groupId }, body: { options: JSON.stringify(options) } }),
    onSuccess: (group) => {
      queryClient.setQueryData(queryKeys.groups.one(groupId), group);
      return queryClient.invalidateQueries({ queryKey: queryKeys.groups.lists() });
    },
  });
}
