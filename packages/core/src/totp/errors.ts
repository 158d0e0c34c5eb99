import { registerErrors, type ErrorTexts } from "../errors";

/** Two-factor login (TOTP): each code's HTTP status and user-facing text (the spec's wording). */
export const totpErrors = registerErrors({
  totp_incorrect: { status: 403, text: "Incorrect code - please try again." },
  totp_already_enabled: { status: 409, text: "Two-factor authentication is already enabled." },
  totp_not_enabled: { status: 409, text: "Two-factor authentication is not enabled." },
  totp_setup_expired: { status: 409, text: "This two-factor setup has expired - please start again." },
} as const satisfies ErrorTexts);
