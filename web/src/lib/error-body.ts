/**
 * A failed answer of the API as the server states it: `{ code, message, fields? }` with the status
 * (0: the network failed). Depends on nothing, so a worker reads a failed answer the same way as the
 * page (lib/api.ts turns it into an ApiError).
 */
export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  fields: Record<string, string[]>;
}

/** Reads a failed response: a body that is not the API's JSON (a proxy's error page) leaves the status to speak. */
export async function readErrorBody(response: Response): Promise<ErrorBody> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const data = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return {
    status: response.status,
    code: typeof data.code === "string" ? data.code : `http_${response.status}`,
    message: typeof data.message === "string" ? data.message : response.statusText,
    fields: isFieldErrors(data.fields) ? data.fields : {},
  };
}

/** A request that got no answer. */
export function networkFailure(error: unknown): ErrorBody {
  return { status: 0, code: "network", message: error instanceof Error ? error.message : "Network error", fields: {} };
}

function isFieldErrors(value: unknown): value is Record<string, string[]> {
  return typeof value === "object" && value !== null && Object.values(value).every((v) => Array.isArray(v));
}
