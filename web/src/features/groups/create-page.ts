import type { PageType } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** POST /api/pages (group administrators): a page of one of the six types, last in the menu. */
export function useCreatePage(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, type }: { name: string; type: PageType }) => call("POST /api/pages", { body: { group: groupId, name, type } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.groups.one(groupId) }),
  });
}
