import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** GET /api/users/{id}: the signed-in user's own record (profile and 2FA state). */
export const ownUserQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.users.one(id),
    queryFn: ({ signal }) => call("GET /api/users/{id}", { params: { id }, signal }),
  });

export function useOwnUser(id: number) {
  return useQuery(ownUserQuery(id));
}
