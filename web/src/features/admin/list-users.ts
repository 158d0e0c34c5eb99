import type { ListedUser } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call, isApiError } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export const instanceUsersQuery = queryOptions({
  queryKey: queryKeys.admin.users(),
  queryFn: async ({ signal }): Promise<ListedUser[]> => {
    try {
      const { users } = await call("GET /api/instance/users", { signal });
      return users;
    } catch (error) {
      // Spec 000 §6: a 403 on the user list is an empty list, not an error.
      if (isApiError(error, 403)) return [];
      throw error;
    }
  },
});

/** GET /api/instance/users: every account of the instance, for administrators (with any key reset pending). */
export function useInstanceUsers() {
  return useQuery(instanceUsersQuery);
}
