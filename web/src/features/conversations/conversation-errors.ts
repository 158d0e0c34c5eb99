import { isApiError } from "../../lib/api";
import { i18next } from "../../lib/i18n";
import { KeyLookupError } from "../../lib/keypairs";

/** Spec 000 §8, Messages: 404 deleted, 403 not authorised, anything else the generic text. */
export function loadErrorText(error: unknown): string {
  if (isApiError(error, 404)) return i18next.t("conversations.errors.deleted");
  if (isApiError(error, 403)) return i18next.t("conversations.errors.forbidden");
  return i18next.t("conversations.errors.loadFailed");
}

type Fallback = "addFailed" | "removeFailed" | "adminFailed" | "createFailed" | "renameFailed" | "archiveFailed" | "sendFailed";

/**
 * For changes: a key lookup's own text, the server's rule text for a refused request (it answers
 * the spec's participant and rule messages), else the generic text of the action.
 */
export function actionErrorText(error: unknown, fallback: Fallback): string {
  if (error instanceof KeyLookupError) return error.message;
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429 && error.message) return error.message;
  return i18next.t(`conversations.errors.${fallback}`);
}
