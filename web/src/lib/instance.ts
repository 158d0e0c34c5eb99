import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "./api";
import { type Feature, isFeatureOn } from "./features";
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

/**
 * Whether `feature` is on: undefined until the instance answers (entries stay hidden, routes
 * wait), true when it cannot answer (the server decides what is allowed; the switches only
 * declutter).
 */
export function useFeature(feature: Feature): boolean | undefined {
  const { data, isError } = useQuery(instanceQuery);
  if (data) return isFeatureOn(data, feature);
  return isError ? true : undefined;
}

export type { Feature };
