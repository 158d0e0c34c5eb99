import type { ErrorCode } from "@sealwork/contracts";
import type * as z from "zod";
import { conversationErrors } from "./conversation/errors";
import { driveErrors } from "./drive/errors";
import { moteErrors } from "./mote/errors";
import { groupErrors } from "./group/errors";
import { identityErrors } from "./identity/errors";
import { instanceErrors } from "./instance/errors";
import { inviteErrors } from "./invite/errors";
import { keysErrors } from "./keys/errors";
import { pickupErrors } from "./pickup/errors";
import { totpErrors } from "./totp/errors";
import { userErrors } from "./user/errors";

/** Some codes' HTTP status and user-facing text; each domain keeps its own in <domain>/errors.ts. */
export type ErrorTexts = Partial<Record<ErrorCode, { status: number; text: string }>>;

/** The codes of the HTTP layer itself and of no one domain. */
const commonErrors = {
  bad_request: { status: 400, text: "The request could not be read." },
  validation: { status: 422, text: "Some of the details you entered are invalid." },
  unauthenticated: { status: 401, text: "Please log in." },
  forbidden: { status: 403, text: "You are not allowed to do this." },
  not_found: { status: 404, text: "Requested content not found." },
  method_not_allowed: { status: 405, text: "This method is not allowed here." },
  payload_too_large: { status: 413, text: "The request is too large." },
  too_many_attempts: {
    status: 429,
    text: "You are trying too many times - please wait one minute before submitting again.",
  },
  internal: { status: 500, text: "Something went wrong on our side. Please try again later." },
} as const satisfies ErrorTexts;

/**
 * The one error type. Each code has a stable name (packages/contracts/src/error-codes.ts), an
 * HTTP status and the user-facing text. The HTTP layer maps AppError to a response here and
 * nowhere else; anything that is not an AppError becomes `internal` without its details. The
 * merge must name every code of the contracts exactly once.
 */
export const ERRORS = {
  ...commonErrors,
  ...userErrors,
  ...instanceErrors,
  ...totpErrors,
  ...keysErrors,
  ...inviteErrors,
  ...identityErrors,
  ...conversationErrors,
  ...pickupErrors,
  ...groupErrors,
  ...driveErrors,
  ...moteErrors,
} as const satisfies Record<ErrorCode, { status: number; text: string }>;

export type { ErrorCode };
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: FieldErrors;

  constructor(code: ErrorCode, options: { message?: string; fields?: FieldErrors; cause?: unknown } = {}) {
    super(options.message ?? ERRORS[code].text, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.fields = options.fields;
  }
}

export function fail(code: ErrorCode, options?: { message?: string; fields?: FieldErrors }): never {
  throw new AppError(code, options);
}

/** Whether `error` is an AppError with one of `codes` (any code when none are named). */
export function isAppError(error: unknown, ...codes: ErrorCode[]): error is AppError {
  return error instanceof AppError && (codes.length === 0 || codes.includes(error.code));
}

/** The JSON body of an error response: never a stack, never the cause. */
export function errorBody(error: AppError): { code: ErrorCode; message: string; fields?: FieldErrors } {
  return error.fields ? { code: error.code, message: error.message, fields: error.fields } : { code: error.code, message: error.message };
}

/**
 * `value` checked against `schema`, or `code` (422 `validation` by default) with the messages
 * per field. Every verb checks its own input with this, so a queue worker or an import that
 * calls a verb directly is held to the same rules as an HTTP request.
 */
export function valid<S extends z.ZodType>(schema: S, value: unknown, code: ErrorCode = "validation"): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join(".") || "_";
    (fields[path] ??= []).push(issue.message);
  }
  return fail(code, { fields });
}
