import { registerErrors, type ErrorTexts } from "../errors";

/** Accounts: login, registration, settings: each code's HTTP status and user-facing text (the spec's wording). */
export const userErrors = registerErrors({
  contact_unknown: { status: 404, text: "Sorry, we do not recognize your contact details..." },
  password_incorrect: { status: 403, text: "Incorrect password" },
  password_or_totp_incorrect: { status: 403, text: "Incorrect password or 2FA code" },
  vericode_incorrect: { status: 403, text: "The verification code used was incorrect..." },
  registration_invalid: { status: 422, text: "Your registration details are invalid..." },
  already_registered: { status: 409, text: "This account is already registered - please log in." },
  old_password_incorrect: { status: 403, text: "Your current password is incorrect." },
  contact_taken: { status: 409, text: "This email address or phone number is already in use." },
  email_change_forbidden: { status: 403, text: "Only an administrator can change an email address." },
  verification_limit: { status: 429, text: "Too many codes or wrong codes for this account - please wait an hour before trying again." },
  account_disabled: { status: 403, text: "This account has been disabled - please contact your administrator." },
  disable_self: { status: 422, text: "You cannot disable your own account." },
} as const satisfies ErrorTexts);
