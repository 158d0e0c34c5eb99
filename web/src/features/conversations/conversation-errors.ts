import { isApiError } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { i18next } from "../../lib/i18n";
import { KeyLookupError } from "../../lib/keypairs";
import "./i18n";

/** Spec 000 §8, Messages: 404 deleted, 403 not authorised, anything else the generic text. */
export function loadErrorText(error: unknown): string {
  if (isApiError(error, 404)) return i18next.t("conversations:errors.deleted");
  if (isApiError(error, 403)) return i18next.t("conversations:errors.forbidden");
  return i18next.t("conversations:errors.loadFailed");
}

type Fallback = "addFailed" | "removeFailed" | "adminFailed" | "createFailed" | "renameFailed" | "archiveFailed" | "sendFailed";

/**
 * For changes: a key lookup's own text, the text of a refusal's code (the spec's participant and
 * rule messages), else the generic text of the action.
 */
export function actionErrorText(error: unknown, fallback: Fallback): string {
  if (error instanceof KeyLookupError) return error.message;
  return errorText(error, i18next.t(`conversations:errors.${fallback}`));
}
