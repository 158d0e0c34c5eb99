import { isApiError } from "../../lib/api";
import { errorText } from "../../lib/error-text";
import { i18next } from "../../lib/i18n";
import "./i18n";

/**
 * Spec 000 §8, login: a refusal shows its code's text (unknown contact, wrong password or 2FA
 * code, wrong verification code, expired invitation, unknown pickup, too many tries); anything
 * else shows the login's own text.
 */
const failed = () => i18next.t("login:lookupFailed");

export function lookupErrorText(error: unknown): string {
  return errorText(error, failed());
}

/** A refusal that names the second factor: the code (or the password) was wrong. */
export function isTotpFailure(error: unknown): boolean {
  return isApiError(error, 403) && (error.code === "password_or_totp_incorrect" || error.code === "totp_incorrect");
}

/** A refusal of the password (alone, or with the second factor: the server does not say which). */
export function isPasswordFailure(error: unknown): boolean {
  return isApiError(error, 403) && (error.code === "password_incorrect" || error.code === "password_or_totp_incorrect");
}

export function loginErrorText(error: unknown): string {
  return errorText(error, failed());
}

export function registerErrorText(error: unknown): string {
  // Spec 000 §8: registration details the contract refuses read as the registration's own 422.
  if (isApiError(error, 422) && error.code === "validation") return i18next.t("errors:registration_invalid");
  return errorText(error, failed());
}

export function sendVerificationErrorText(error: unknown): string {
  return errorText(error, i18next.t("login:register.sendFailed"));
}

export function pickupErrorText(error: unknown): string {
  return errorText(error, failed());
}
