import type { ErrorCode } from "@sealwork/contracts";

/**
 * The one error type. Each code has a stable name, an HTTP status and the user-facing text
 * (the spec's wording where it gives one). The HTTP layer maps AppError to a response here and
 * nowhere else; anything that is not an AppError becomes `internal` without its details.
 */
export const ERRORS = {
  bad_request: { status: 400, text: "The request could not be read." },
  validation: { status: 422, text: "Some of the details you entered are invalid." },
  unauthenticated: { status: 401, text: "Please log in." },
  forbidden: { status: 403, text: "You are not allowed to do this." },
  not_found: { status: 404, text: "Requested content not found." },
  method_not_allowed: { status: 405, text: "This method is not allowed here." },
  payload_too_large: { status: 413, text: "The request is too large." },
  too_many_attempts: {
    status: 429,
    text: "You are trying too many times - please wait one minute before submitting again.",
  },
  contact_unknown: { status: 404, text: "Sorry, we do not recognize your contact details..." },
  password_incorrect: { status: 403, text: "Incorrect password" },
  password_or_totp_incorrect: { status: 403, text: "Incorrect password or 2FA code" },
  vericode_incorrect: { status: 403, text: "The verification code used was incorrect..." },
  registration_invalid: { status: 422, text: "Your registration details are invalid..." },
  already_registered: { status: 409, text: "This account is already registered - please log in." },
  old_password_incorrect: { status: 403, text: "Your current password is incorrect." },
  contact_taken: { status: 409, text: "This email address or phone number is already in use." },
  setup_closed: { status: 403, text: "This instance has already been set up - please log in." },
  setup_token_invalid: { status: 403, text: "This setup link is not valid." },
  // Two-factor login (TOTP)
  totp_incorrect: { status: 403, text: "Incorrect code - please try again." },
  totp_already_enabled: { status: 409, text: "Two-factor authentication is already enabled." },
  totp_not_enabled: { status: 409, text: "Two-factor authentication is not enabled." },
  totp_setup_expired: { status: 409, text: "This two-factor setup has expired - please start again." },
  // Account keys and backups (packages/core/src/keypair.ts)
  keypair_stale: { status: 409, text: "Your key was changed in another window - please reload and try again." },
  keypair_invalid: { status: 422, text: "Invalid keypair on record for user" },
  keypair_signature_invalid: { status: 422, text: "The signature of this key does not verify." },
  backup_invalid: { status: 422, text: "The key backup is not a valid encrypted key." },
  clock_skew: { status: 422, text: "Server and client time are too different!" },
  keypair_not_found: { status: 404, text: "Error retrieving keypair data" },
  backup_not_found: { status: 404, text: "This backup does not exist or has expired." },
  backup_exists: { status: 409, text: "A backup with this name exists already." },
  // end of account keys and backups
  // Invitations (packages/core/src/invite.ts)
  invite_expired: { status: 403, text: "This invitation has expired - please ask for a new one." },
  invite_accepted: { status: 409, text: "This invitation has been accepted already." },
  // end of invitations
  // Conversations (packages/core/src/conversation.ts)
  conversation_not_found: { status: 404, text: "This conversation or pickup has been deleted!" },
  conversation_forbidden: { status: 403, text: "You are not authorized to access this conversation or pickup!" },
  conversation_no_shared_group: { status: 403, text: "You can only start a conversation with someone who shares a group with you." },
  reservation_invalid: { status: 422, text: "This conversation id was not reserved by you or has expired - please try again." },
  user_not_found: { status: 404, text: "Error looking up user" },
  participants_invalid: { status: 422, text: "Every participant, you included, needs the conversation key sealed for them." },
  sealed_key_invalid: { status: 422, text: "The conversation key is not a valid sealed key." },
  title_invalid: { status: 422, text: "The conversation title is not a valid encrypted title." },
  mote_payload_invalid: { status: 422, text: "Invalid mote payload" },
  add_forbidden: { status: 403, text: "You are not authorized to add new people to this conversation!" },
  remove_forbidden: { status: 403, text: "You are not authorized to remove people from this conversation!" },
  administrate_forbidden: { status: 403, text: "You are not authorized to administrate this conversation!" },
  add_not_author: { status: 403, text: "You didn't start this conversation, so you cannot add people to it." },
  participant_exists: { status: 409, text: "This person is already in this conversation!" },
  participant_missing: { status: 404, text: "This person is not in this conversation." },
  remove_self: { status: 422, text: "You cannot remove yourself from this conversation!" },
  remove_author: { status: 422, text: "You cannot remove the original author from this conversation!" },
  unadmin_self: { status: 422, text: "You cannot remove your own admin state in this conversation!" },
  unadmin_author: { status: 422, text: "You cannot remove admin from the original author from this conversation!" },
  // Conversation attachments (packages/core/src/attachment.ts)
  attachment_too_large: { status: 413, text: "Files can be at most 1024 MB." },
  attachment_not_found: { status: 404, text: "Error fetching attachment-file for message!" },
  attachment_incomplete: { status: 409, text: "Error sending attachment-file for message!" },
  attachment_invalid: { status: 422, text: "This message names a file that was not uploaded to this conversation, or is already sent." },
  // end of conversations
  // Pickups (packages/core/src/pickup.ts)
  pickup_not_found: { status: 404, text: "This pickup code is incorrect or has expired..." },
  pickup_auth_incorrect: { status: 403, text: "The security code is incorrect - please try again." },
  pickup_delete_forbidden: { status: 403, text: "You are not authorized to delete this pickup conversation." },
  pickup_participants: { status: 422, text: "You can only add more people to a conversation, not a pickup." },
  pickup_invalid: { status: 422, text: "The pickup's key, lookup or link is not valid." },
  pickup_exists: { status: 409, text: "Server error while creating your pickup. Please try again later." },
  conversation_not_pickup: { status: 422, text: "Only a pickup can be deleted - archive this conversation instead." },
  // end of pickups
  internal: { status: 500, text: "Something went wrong on our side. Please try again later." },
} as const satisfies Record<ErrorCode, { status: number; text: string }>;

export type { ErrorCode };
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: FieldErrors;

  constructor(code: ErrorCode, options: { message?: string; fields?: FieldErrors; cause?: unknown } = {}) {
    super(options.message ?? ERRORS[code].text, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.fields = options.fields;
  }
}

export function fail(code: ErrorCode, options?: { message?: string; fields?: FieldErrors }): never {
  throw new AppError(code, options);
}

/** The JSON body of an error response: never a stack, never the cause. */
export function errorBody(error: AppError): { code: ErrorCode; message: string; fields?: FieldErrors } {
  return error.fields ? { code: error.code, message: error.message, fields: error.fields } : { code: error.code, message: error.message };
}
