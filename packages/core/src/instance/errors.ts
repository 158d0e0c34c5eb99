import { registerErrors, type ErrorTexts } from "../errors";

/** The instance: first-administrator setup: each code's HTTP status and user-facing text (the spec's wording). */
export const instanceErrors = registerErrors({
  setup_closed: { status: 403, text: "This instance has already been set up - please log in." },
  setup_token_invalid: { status: 403, text: "This setup link is not valid." },
} as const satisfies ErrorTexts);
