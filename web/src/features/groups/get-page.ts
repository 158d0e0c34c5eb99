import type { PageView } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export type { PageView };

export const pageQuery = (groupId: number, pageId: number) =>
  queryOptions({
    queryKey: queryKeys.groups.page(groupId, pageId),
    queryFn: ({ signal }) => call("GET /api/pages/{id}", { params: { id: pageId }, signal }),
    retry: false,
  });

/** GET /api/pages/{id}: one page with the caller's level (read-only at 1 or below), whether they may create items and edit its permissions. */
export function usePage(groupId: number, pageId: number | null) {
  return useQuery({ ...pageQuery(groupId, pageId ?? 0), enabled: pageId !== null });
}
