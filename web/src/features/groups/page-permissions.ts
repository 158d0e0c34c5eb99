import type { Body, Grant, Response } from "@sealwork/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export type { Grant };
export type PagePermissions = Response<"GET /api/pages/{id}/permissions">;

export const pagePermissionsQuery = (groupId: number, pageId: number) =>
  queryOptions({
    queryKey: queryKeys.groups.permissions(groupId, pageId),
    queryFn: ({ signal }) => call("GET /api/pages/{id}/permissions", { params: { id: pageId }, signal }),
    retry: false,
  });

/** GET /api/pages/{id}/permissions: who may read and use the page, with names, and whether the caller may change it. */
export function usePagePermissions(groupId: number, pageId: number) {
  return useQuery(pagePermissionsQuery(groupId, pageId));
}

/** POST /api/pages/{id}/permit (group administrators): the lists as a whole. */
export function usePermitPage(groupId: number, pageId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lists: Body<"POST /api/pages/{id}/permit">) => call("POST /api/pages/{id}/permit", { params: { id: pageId }, body: lists }),
    onSuccess: (permissions) => {
      queryClient.setQueryData(queryKeys.groups.permissions(groupId, pageId), permissions);
      // Levels follow the lists: the menu and the page's lock may change.
      return queryClient.invalidateQueries({ queryKey: queryKeys.groups.one(groupId) });
    },
  });
}
