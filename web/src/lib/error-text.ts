import { ERROR_CODES, type ErrorCode } from "@sealwork/contracts/error-codes";
import { isApiError } from "./api";
import { i18next } from "./i18n";

export function isErrorCode(code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}

/** Whether the server refused the request for a reason it named (a 4xx with a known code). */
export function isRefusal(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500 && isErrorCode(error.code);
}

/**
 * The text a failed call shows (spec 000 §8), in the user's language, never the server's English
 * `message`: a refusal shows the translation of its code (lib/i18n/errors); anything else (no
 * answer, a server error, a code this build does not know) shows the screen's `fallback` when it
 * has one, else a text by status.
 */
export function errorText(error: unknown, fallback?: string): string {
  if (isApiError(error) && isRefusal(error)) return i18next.t(`errors:${error.code as ErrorCode}`);
  if (fallback !== undefined) return fallback;
  if (!isApiError(error)) return i18next.t("common:unexpected");
  if (isErrorCode(error.code)) return i18next.t(`errors:${error.code}`);
  if (error.status === 0) return i18next.t("common:failed.network");
  if (error.status >= 500) return i18next.t("common:failed.server", { status: error.status });
  return i18next.t("common:failed.refused", { status: error.status });
}
