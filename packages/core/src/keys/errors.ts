import { registerErrors, type ErrorTexts } from "../errors";

/** Account keys and the backup store: each code's HTTP status and user-facing text (the spec's wording). */
export const keysErrors = registerErrors({
  keypair_stale: { status: 409, text: "Your key was changed in another window - please reload and try again." },
  sender_key_stale: { status: 409, text: "Your key was renewed or reset - please enter your secure code again." },
  keypair_invalid: { status: 422, text: "Invalid keypair on record for user" },
  keypair_signature_invalid: { status: 422, text: "The signature of this key does not verify." },
  backup_invalid: { status: 422, text: "The key backup is not a valid encrypted key." },
  clock_skew: { status: 422, text: "Server and client time are too different!" },
  keypair_not_found: { status: 404, text: "Error retrieving keypair data" },
  backup_not_found: { status: 404, text: "This backup does not exist or has expired." },
  backup_exists: { status: 409, text: "A backup with this name exists already." },
} as const satisfies ErrorTexts);
