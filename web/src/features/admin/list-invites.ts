import type { InviteView } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export const instanceInvitesQuery = queryOptions({
  queryKey: queryKeys.admin.invites(),
  queryFn: async ({ signal }): Promise<InviteView[]> => (await call("GET /api/instance/invites", { signal })).invites,
});

/** GET /api/instance/invites: every invitation with its status, for administrators. */
export function useInstanceInvites() {
  return useQuery(instanceInvitesQuery);
}
