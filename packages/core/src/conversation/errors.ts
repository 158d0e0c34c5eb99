import type { ErrorTexts } from "../errors";

/** Conversations, their participants and attachments: each code's HTTP status and user-facing text (the spec's wording). */
export const conversationErrors = {
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
  attachment_too_large: { status: 413, text: "Files can be at most 1024 MB." },
  attachment_not_found: { status: 404, text: "Error fetching attachment-file for message!" },
  attachment_incomplete: { status: 409, text: "Error sending attachment-file for message!" },
  attachment_invalid: { status: 422, text: "This message names a file that was not uploaded to this conversation, or is already sent." },
} as const satisfies ErrorTexts;
