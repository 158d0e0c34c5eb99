import type { Body } from "@sealwork/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export type PageChanges = Body<"PATCH /api/pages/{id}">;

/** POST /api/pages/{id} with `_method: PATCH` (group administrators): the menu item (name, internal, icon, menu name, order, start page) or the page's options. */
export function useUpdatePage(groupId: number, pageId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: PageChanges) => call("PATCH /api/pages/{id}", { params: { id: pageId }, body: changes }),
    // The menu, the start page option and the page itself all may change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.groups.one(groupId) }),
  });
}
