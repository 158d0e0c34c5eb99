import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

/** GET /api/users?lookup=#<id>: whether one's own account has 2FA on (spec 000 §7). */
export const totpStatusQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.users.totpStatus(id),
    queryFn: async ({ signal }) => {
      const { totp_enabled } = await call("GET /api/users", { query: { lookup: `#${id}` }, signal });
      return totp_enabled;
    },
  });

export function useTotpStatus(id: number) {
  return useQuery(totpStatusQuery(id));
}
