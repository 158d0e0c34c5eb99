import { registerErrors, type ErrorTexts } from "../errors";

/**
 * Identities, admin certificates and pins (protocol v2): each code's HTTP status and text. Short:
 * every area's Lambda carries every text, and the SPA shows its own translation (web/src/lib/i18n/errors).
 */
export const identityErrors = registerErrors({
  identity_malformed: { status: 422, text: "Not a well-formed identity record." },
  identity_signature_invalid: { status: 422, text: "A signature does not verify." },
  identity_chain_invalid: { status: 422, text: "The record does not continue the chain of keys." },
  identity_untrusted: { status: 422, text: "The identity does not chain to the root." },
  identity_keys_mismatch: { status: 422, text: "The record is for other keys." },
  identity_conflict: { status: 409, text: "Changed in another window - please reload." },
  identity_root_forbidden: { status: 403, text: "Only the first administrator publishes the root, once." },
  invitation_invalid: { status: 422, text: "The signed invitation does not match." },
  invitation_required: { status: 422, text: "A signed invitation needs a certified identity." },
  takeover_fresh_keys: { status: 422, text: "A takeover makes new keys." },
  admin_certificate_exists: { status: 409, text: "Certified already." },
  legacy_certificate_exists: { status: 409, text: "This key is certified already." },
  legacy_has_identity: { status: 409, text: "This account has a certified identity." },
  legacy_rule_exists: { status: 409, text: "The rule is published already." },
  pins_invalid: { status: 422, text: "Pins must be encrypted." },
  pins_conflict: { status: 409, text: "Changed in another window - please try again." },
  key_reset_invalid: { status: 422, text: "The key reset does not match this account." },
  key_reset_expired: { status: 403, text: "This key reset has expired - please ask an administrator for a new one." },
  key_reset_own: { status: 403, text: "You cannot reset your own key." },
  key_reset_required: { status: 422, text: "Your key was reset: the new key needs the record the reset certifies." },
  legacy_key_uncertified: { status: 422, text: "An administrator must certify your key first." },
  legacy_certificate_mismatch: { status: 422, text: "The record must carry the certificate of your key." },
} as const satisfies ErrorTexts);
