import type { Response } from "@sealwork/contracts";
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";
import { nextChunk } from "./chunks";

export type Person = Response<"GET /api/people">["people"][number];

/**
 * GET /api/people: the people the caller may pick (members of their groups; everyone for
 * administrators), by name, in chunks.
 */
export const peopleQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.people.search(q),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => call("GET /api/people", { query: { q: q || undefined, ...nextChunk(pageParam) }, signal }),
    getNextPageParam: (last, pages) => (last.more ? pages.reduce((n, page) => n + page.people.length, 0) : undefined),
  });

export function useSearchPeople(q: string, enabled = true) {
  return useInfiniteQuery({ ...peopleQuery(q.trim()), enabled });
}
