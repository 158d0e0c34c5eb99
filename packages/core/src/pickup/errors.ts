import { registerErrors, type ErrorTexts } from "../errors";

/** Pickups: each code's HTTP status and user-facing text (the spec's wording). */
export const pickupErrors = registerErrors({
  pickup_not_found: { status: 404, text: "This pickup code is incorrect or has expired..." },
  pickup_auth_incorrect: { status: 403, text: "The security code is incorrect - please try again." },
  pickup_delete_forbidden: { status: 403, text: "You are not authorized to delete this pickup conversation." },
  pickup_participants: { status: 422, text: "You can only add more people to a conversation, not a pickup." },
  pickup_admin: { status: 422, text: "Nobody's admin state changes in a pickup." },
  pickup_invalid: { status: 422, text: "The pickup's key, lookup or link is not valid." },
  pickup_exists: { status: 409, text: "Server error while creating your pickup. Please try again later." },
  pickup_limit: { status: 429, text: "You have sent too many pickups in the last hour - please wait before sending more." },
  conversation_not_pickup: { status: 422, text: "Only a pickup can be deleted - archive this conversation instead." },
} as const satisfies ErrorTexts);
