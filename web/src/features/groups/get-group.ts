import type { GroupView } from "@sealwork/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { queryKeys } from "../../lib/query-keys";

export type { GroupView };

export const groupQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.groups.one(id),
    queryFn: ({ signal }) => call("GET /api/groups/{id}", { params: { id }, signal }),
    // A 403 or 404 is an answer, not a hiccup: say so at once.
    retry: false,
  });

/** GET /api/groups/{id}: the group, its options and the menu of the pages the caller may see. */
export function useGroup(id: number | null) {
  return useQuery({ ...groupQuery(id ?? 0), enabled: id !== null });
}

/** The group options (spec 001 §3) from their JSON text; anything unreadable counts as unset. */
export function groupOptions(group: Pick<GroupView, "options">): { startpage: number | null; currencyCodes: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(group.options);
  } catch (error) {
    console.warn("group options are not JSON", error);
    parsed = {};
  }
  const options = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const startpage = typeof options.startpage === "number" ? options.startpage : null;
  const codes = options.currencyCodes;
  return { startpage, currencyCodes: typeof codes === "string" ? codes : Array.isArray(codes) ? codes.join(",") : "" };
}
