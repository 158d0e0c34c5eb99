import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, whatever the working directory. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** Imports a route-table handler string ("functions/api/health.handler") from source. */
export async function loadHandler<T>(handler: string): Promise<T> {
  const dot = handler.lastIndexOf(".");
  const module = (await import(resolve(ROOT, `${handler.slice(0, dot)}.ts`))) as Record<string, unknown>;
  const fn = module[handler.slice(dot + 1)];
  if (typeof fn !== "function") throw new Error(`${handler} does not export a function`);
  return fn as T;
}
