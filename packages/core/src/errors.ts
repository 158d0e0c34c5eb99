import type { ErrorCode } from "@sealwork/contracts";
import type * as z from "zod";
import type { conversationErrors } from "./conversation/errors";
import type { driveErrors } from "./drive/errors";
import type { moteErrors } from "./mote/errors";
import type { groupErrors } from "./group/errors";
import type { identityErrors } from "./identity/errors";
import type { instanceErrors } from "./instance/errors";
import type { inviteErrors } from "./invite/errors";
import type { keysErrors } from "./keys/errors";
import type { pickupErrors } from "./pickup/errors";
import type { totpErrors } from "./totp/errors";
import type { userErrors } from "./user/errors";
import { logger } from "./http/logger";

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

/** Every code's status and text, as the types see them: the domains' maps merged (type-only imports, which cost a bundle nothing). */
type AllErrors = typeof commonErrors & typeof userErrors & typeof instanceErrors & typeof totpErrors & typeof keysErrors &
  typeof inviteErrors & typeof identityErrors & typeof conversationErrors & typeof pickupErrors & typeof groupErrors &
  typeof driveErrors & typeof moteErrors;
/** The merge must name every code of the contracts (and no other): the typecheck fails otherwise. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type EveryCodeHasItsText = Holds<Exactly<keyof AllErrors, ErrorCode>>;

const registered: ErrorTexts = { ...commonErrors };

/**
 * Each domain's errors.ts hands its codes' status and text over here when it is imported, so that
 * a bundle carries the texts of the domains it imports and no others. Returns `texts`, typed as given.
 */
export function registerErrors<const T extends ErrorTexts>(texts: T): T {
  Object.assign(registered, texts);
  return texts;
}

/**
 * A code whose domain's errors.ts this bundle did not import (a module names a code without
 * importing its errors.ts; test/unit/registrations.test.ts is there to catch it): the response
 * keeps the code, which the SPA translates by itself, with the status and text of `internal`, and
 * the log says which code lacks its text. A 5xx rather than a guessed 4xx: it is our fault, and
 * the area's alarms should see it.
 */
export function errorTexts(code: ErrorCode): { status: number; text: string } {
  const found = registered[code];
  if (found) return found;
  logger.error("An error code has no status and text in this bundle: the module that names it must import its domain's errors.ts", { code });
  return commonErrors.internal;
}

export type { ErrorCode };
export type FieldErrors = Record<string, string[]>;

/**
 * The one error type. Each code has a stable name (packages/contracts/src/error-codes.ts), an
 * HTTP status and the user-facing text, kept in its domain's errors.ts. The HTTP layer maps
 * AppError to a response here and nowhere else; anything that is not an AppError becomes
 * `internal` without its details.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: FieldErrors;

  constructor(code: ErrorCode, options: { message?: string; fields?: FieldErrors; cause?: unknown } = {}) {
    const { status, text } = errorTexts(code);
    super(options.message ?? text, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = status;
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
