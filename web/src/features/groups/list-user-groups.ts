import type { Response } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { isGuest } from "../../lib/guest";
import { queryKeys } from "../../lib/query-keys";
import { useSession } from "../../lib/session";

export type UserGroups = Response<"GET /api/users/{id}/groups">;

export const userGroupsQuery = (uid: number) =>
  queryOptions({
    queryKey: queryKeys.groups.list(uid),
    queryFn: ({ signal }) => call("GET /api/users/{id}/groups", { params: { id: uid }, signal }),
  });

/** GET /api/users/{id}/groups: the signed-in user's groups, with member counts and waiting messages (members only: a guest has none). */
export function useUserGroups() {
  const session = useSession();
  return useQuery({ ...userGroupsQuery(session?.id ?? 0), enabled: session !== null && !isGuest(session) });
}
