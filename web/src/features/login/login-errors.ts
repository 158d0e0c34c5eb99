import { isApiError } from "../../lib/api";

/** Spec 000 §8, login: the text for each failure, as an i18n key. */
export function lookupErrorKey(error: unknown) {
  if (isApiError(error, 404)) return "login.unknownContact" as const;
  if (isApiError(error, 429)) return "login.tooMany" as const;
  return "login.lookupFailed" as const;
}

/** A 403 that names the second factor means the code (or the password) was wrong. */
export function isTotpFailure(error: unknown): boolean {
  return isApiError(error, 403) && (error.code === "password_or_totp_incorrect" || /totp|2fa/i.test(error.message));
}

export function loginErrorKey(error: unknown) {
  if (isApiError(error, 403)) return isTotpFailure(error) ? ("login.incorrectPasswordOrTotp" as const) : ("login.incorrectPassword" as const);
  if (isApiError(error, 429)) return "login.tooMany" as const;
  return "login.lookupFailed" as const;
}

export function registerErrorKey(error: unknown) {
  if (isApiError(error, 403) && error.code === "invite_expired") return "login.register.inviteExpired" as const;
  if (isApiError(error, 403)) return "login.register.codeIncorrect" as const;
  if (isApiError(error, 422)) return "login.register.invalid" as const;
  if (isApiError(error, 429)) return "login.tooMany" as const;
  return "login.lookupFailed" as const;
}

export function sendVerificationErrorKey(error: unknown) {
  if (isApiError(error, 403) && error.code === "invite_expired") return "login.register.inviteExpired" as const;
  return isApiError(error, 429) ? ("login.tooMany" as const) : ("login.register.sendFailed" as const);
}

export function pickupErrorKey(error: unknown) {
  if (isApiError(error, 404)) return "login.pickup.incorrect" as const;
  if (isApiError(error, 429)) return "login.tooMany" as const;
  return "login.lookupFailed" as const;
}
