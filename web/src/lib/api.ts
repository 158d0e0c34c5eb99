import type { Body, HttpMethod, Params, Query, Response, RouteKey } from "@sealwork/contracts";
// The route module alone: the contracts' index builds every zod schema, which the first page does not need.
import { splitRouteKey } from "@sealwork/contracts/route";
import { type ErrorBody, networkFailure, readErrorBody } from "./error-body";
import { clearSession, getSession } from "./session";
import { dropMovedKeys } from "./unlocked-keys";

export const API_URL: string = import.meta.env.VITE_API_URL ?? "";

/**
 * The browser's fetch as it was when the app loaded: a script that later replaces window.fetch
 * does not see the Authorization header go by (docs/protocol.md §12, "The API token").
 */
const nativeFetch: typeof fetch = globalThis.fetch.bind(globalThis);

/** The server's error body: `{ code, message, fields? }`. Network failures have status 0. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string[]>;

  constructor(status: number, code: string, message: string, fields: Record<string, string[]> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

// A part whose contract has no schema must be left out; one whose fields are all optional may be.
type Part<N extends string, T> = [T] extends [undefined]
  ? { [P in N]?: never }
  : object extends T
    ? { [P in N]?: T }
    : { [P in N]: T };

export type CallOptions<K extends RouteKey> = Part<"params", Params<K>> &
  Part<"query", Query<K>> &
  Part<"body", Body<K>> & { signal?: AbortSignal };

type CallArgs<K extends RouteKey> = object extends CallOptions<K> ? [options?: CallOptions<K>] : [options: CallOptions<K>];

/** Calls one route of the contracts: `call("PATCH /api/users/{id}", { params: { id }, body })`. */
export async function call<K extends RouteKey>(key: K, ...[options]: CallArgs<K>): Promise<Response<K>> {
  const { method, path } = splitRouteKey(key);
  const opts = (options ?? {}) as { params?: object; query?: object; body?: unknown; signal?: AbortSignal };
  return request<Response<K>>(method, fillPath(path, opts.params), opts);
}

export interface RequestOptions {
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The untyped layer under `call`, for routes that have no contract yet. Sends and accepts JSON
 * and the bearer token of the session.
 */
export async function request<T>(method: HttpMethod, path: string, { query, body, signal }: RequestOptions = {}): Promise<T> {
  const session = getSession();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (session) headers.Authorization = `Bearer ${session.api_token}`;

  let response: globalThis.Response;
  try {
    response = await nativeFetch(API_URL + path + queryString(query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw answerFailed(networkFailure(error), session?.api_token);
  }

  if (!response.ok) throw answerFailed(await readErrorBody(response), session?.api_token);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function fillPath(path: string, params: object | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: object | undefined): string {
  if (!query) return "";
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * A request sent with `token` failed: what that means for the session, and the error to throw. Also
 * for requests sent from a worker (features/conversations/pages-ahead.ts).
 */
export function answerFailed({ status, code, message, fields }: ErrorBody, token: string | undefined): ApiError {
  // Only a token the server no longer accepts ends the session; a stale token sent by another
  // tab's old session is the same case. This tab's session only: another tab signed in on its own
  // and holds a token of its own.
  if (status === 401 && token !== undefined && getSession()?.api_token === token) clearSession({ everywhere: false });
  // Something signed by a key the account replaced elsewhere: ask for the new one (unlocked-keys.ts).
  if (code === "sender_key_stale") dropMovedKeys();
  return new ApiError(status, code, message, fields);
}
