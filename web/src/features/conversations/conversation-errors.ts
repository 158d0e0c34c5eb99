import { isCryptoError } from "@sealwork/crypto";
import { isApiError } from "../../lib/api";
import { errorText, isRefusal } from "../../lib/error-text";
import { i18next } from "../../lib/i18n";
import { KeyLookupError } from "../../lib/keypairs";
import { PinsRefusedError } from "../../lib/pins";
import { TrustError } from "../../lib/trust";
import { DistributionError, RekeyPendingError } from "./distribution";
import "./i18n";

/**
 * Spec 000 §8, Messages: the text of the code that came back, so a conversation that never
 * existed (`not_found`: 'Requested content not found.') is told apart from a deleted one
 * (`conversation_not_found`: 'This conversation or pickup has been deleted!') and a refusal
 * (`conversation_forbidden`). A 403 or 404 without a code of its own keeps the spec's texts; a key
 * copy that does not open says so; anything else (no answer, a server error) is the generic one.
 */
export function loadErrorText(error: unknown): string {
  if (error instanceof DistributionError || error instanceof PinsRefusedError) return error.message;
  // The copy of the key this answer carries does not open (issue 11, item 6): not a server error.
  if (isCryptoError(error, "decrypt_failed")) return i18next.t("conversations:errors.keyFailed");
  if (isApiError(error, 403) && error.code === "forbidden") return i18next.t("conversations:errors.forbidden");
  if (isRefusal(error)) return errorText(error);
  if (isApiError(error, 404)) return i18next.t("conversations:errors.deleted");
  if (isApiError(error, 403)) return i18next.t("conversations:errors.forbidden");
  return i18next.t("conversations:errors.loadFailed");
}

type Fallback = "addFailed" | "removeFailed" | "adminFailed" | "createFailed" | "renameFailed" | "archiveFailed" | "sendFailed" | "leaveFailed" | "migrationFailed";

/**
 * For changes: a key lookup's or trust check's own text (a changed key's warning), the text of a refusal's code (the spec's participant and
 * rule messages), else the generic text of the action.
 */
export function actionErrorText(error: unknown, fallback: Fallback): string {
  if (error instanceof KeyLookupError || error instanceof TrustError || error instanceof DistributionError || error instanceof RekeyPendingError || error instanceof PinsRefusedError) return error.message;
  return errorText(error, i18next.t(fallback === "leaveFailed" ? "conversations:distribution.leaveFailed" : `conversations:errors.${fallback}`));
}
