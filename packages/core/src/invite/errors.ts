import { registerErrors, type ErrorTexts } from "../errors";

/** Invitations: each code's HTTP status and user-facing text (the spec's wording). */
export const inviteErrors = registerErrors({
  invite_expired: { status: 403, text: "This invitation has expired - please ask for a new one." },
  invite_accepted: { status: 409, text: "This invitation has been accepted already." },
  invite_not_found: { status: 404, text: "This invitation does not exist." },
  invite_reservation_invalid: { status: 422, text: "Not an invite id reserved by you." },
  invite_reissue: { status: 409, text: "Expired: resend it with new keys." },
  invite_changed: { status: 409, text: "This invitation was changed meanwhile (another administrator issued a new code, or the invitee took their key over) - please look again." },
  invite_key_taken: { status: 409, text: "The invitee has taken over their key already: reset their key instead." },
} as const satisfies ErrorTexts);
