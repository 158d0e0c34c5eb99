import { useMutation } from "@tanstack/react-query";
import { request } from "../../lib/api";

/**
 * GET /api/pickup/{code}?meta=1. The pickup routes are not in the contracts yet, so this goes
 * through the untyped layer and keeps the answer opaque until they are.
 */
export function lookupPickup(code: string): Promise<unknown> {
  return request<unknown>("GET", `/api/pickup/${encodeURIComponent(code)}`, { query: { meta: 1 } });
}

export function useLookupPickup() {
  return useMutation({ mutationFn: lookupPickup });
}
