import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "./api";
import { queryKeys } from "./query-keys";

/** Used until the instance answers, or when it cannot. */
export const DEFAULT_TITLE = "Sealwork";

/**
 * The instance's public configuration (title, idle timeout, feature switches). It lives in lib
 * rather than a feature because the shell and every screen read it, like the session.
 */
export const instanceQuery = queryOptions({
  queryKey: queryKeys.instance(),
  queryFn: ({ signal }) => call("GET /api/instance", { signal }),
  staleTime: 5 * 60_000,
});

export function useInstance() {
  const query = useQuery(instanceQuery);
  return { ...query, title: query.data?.title || DEFAULT_TITLE };
}
