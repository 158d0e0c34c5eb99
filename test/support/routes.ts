import { contracts, type RouteContract } from "@sealwork/contracts";
import { servedRoutes, type ServedRoute } from "../../functions/routes";

export interface RouteCase extends ServedRoute {
  contract: RouteContract;
}

/** Every route as served (including the POST entries of `_method` routes), with its contract. */
export function routeCases(): RouteCase[] {
  return servedRoutes().map((route) => ({ ...route, contract: contracts[route.key] as RouteContract }));
}

/** The concrete path with each {param} replaced. */
export function fillPath(path: string, values: Record<string, string> = {}, fallback = "1"): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? fallback));
}

/** The method override field for "POST path" entries that stand for another method. */
export function overrideBody(route: RouteCase): Record<string, unknown> {
  const own = route.key.split(" ")[0]!;
  return route.method === own ? {} : { _method: own };
}
