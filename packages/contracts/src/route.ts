import type * as z from "zod";
import type { CallerKind } from "./access";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * One entry of the API: who may call it and the shapes it takes and gives. The handler, the
 * web client and the test harnesses all read these, so they cannot drift apart.
 */
export interface RouteContract {
  access: readonly CallerKind[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** A POST carrying `_method` equal to this route's method reaches this route too (spec 000 §7). */
  methodOverride?: boolean;
  /** The handler may answer 204 with no body instead of `response` (e.g. "nothing new"). */
  noContent?: boolean;
}

export function route<const C extends RouteContract>(contract: C): C {
  return contract;
}

export type RouteKeyParts = { method: HttpMethod; path: string };

export function splitRouteKey(key: string): RouteKeyParts {
  const [method, path] = key.split(" ") as [HttpMethod, string];
  return { method, path };
}
