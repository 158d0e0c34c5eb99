import type { Body, Grant, Response } from "@sealwork/contracts";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { GroupKeyWaitingError } from "./keys/group-ring";
import { type SealingProgress, securePage } from "./records/page-keys";

function waitingIsNothing(error: unknown): null {
  if (error instanceof GroupKeyWaitingError) return null;
  throw error;
}

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

/**
 * POST /api/pages/{id}/permit (group administrators): the lists as a whole; then, with the
 * administrator's keys, the page's key and cards as the new lists want them (securePage).
 */
export function usePermitPage(groupId: number, pageId: number, holder: UnlockedKeys | null, onProgress: SealingProgress = () => undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (lists: Body<"POST /api/pages/{id}/permit">) => {
      const permissions = await call("POST /api/pages/{id}/permit", { params: { id: pageId }, body: lists });
      queryClient.setQueryData(queryKeys.groups.permissions(groupId, pageId), permissions);
      // Without the group's key here yet (it is on its way) there is nothing to seal with: an administrator's later visit does it.
      const sealed = holder ? await securePage(groupId, pageId, holder, onProgress).catch(waitingIsNothing) : null;
      return { permissions, sealed };
    },
    onSettled: async () => {
      // Levels follow the lists: the menu and the page's lock may change; the cards were sealed anew.
      await queryClient.invalidateQueries({ queryKey: queryKeys.groups.one(groupId) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) });
    },
  });
}
