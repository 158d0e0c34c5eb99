import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export const groupMembersQuery = (groupId: number) =>
  queryOptions({
    queryKey: queryKeys.groups.members(groupId),
    queryFn: ({ signal }) => call("GET /api/groups/{id}/members", { params: { id: groupId }, signal }),
  });

/** GET /api/groups/{id}/members: the members and the roles a grant may name (the group's and the instance-wide ones). */
export function useGroupMembers(groupId: number, enabled = true) {
  return useQuery({ ...groupMembersQuery(groupId), enabled });
}
