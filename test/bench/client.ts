import type { SpawnedRuntime } from "../support/runtime";

/** JSON requests to a bench's runtime, as `who` (or nobody); anything but a 2xx throws. */
export function client(runtime: SpawnedRuntime) {
  return async <T>(method: string, path: string, who?: { api_token: string } | null, body?: unknown): Promise<T> => {
    const headers = new Headers({ accept: "application/json" });
    if (who) headers.set("authorization", `Bearer ${who.api_token}`);
    if (body !== undefined) headers.set("content-type", "application/json");
    const response = await fetch(new URL(path, runtime.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
