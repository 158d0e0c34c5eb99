import { registerErrors, type ErrorTexts } from "../errors";

/** A group's drive: each code's HTTP status and user-facing text (the spec's wording where it has one, spec 001 §8). */
export const driveErrors = registerErrors({
  drive_item_not_found: { status: 404, text: "This item does not exist any more - please refresh the page." },
  drive_parent_invalid: { status: 422, text: "A folder goes into a drive or a folder of this group; a drive goes at the top." },
  drive_move_forbidden: { status: 403, text: "You are not allowed to move this object to that folder!" },
  drive_edit_forbidden: { status: 403, text: "You do not have access to edit this object." },
  drive_delete_forbidden: { status: 403, text: "You cannot delete this item - please contact its author." },
  drive_full: { status: 422, text: "This drive holds as many items as it can." },
  record_id_taken: { status: 409, text: "This item exists already." },
  drive_use_forbidden: { status: 403, text: "You are not allowed to add items to this folder." },
  drive_use_on_file: { status: 422, text: "A file has read and change permissions only; use is for drives and folders." },
  drive_seal_invalid: { status: 422, text: "Error editing this object - please refresh the page and try again." },
  drive_item_changed: { status: 409, text: "Error editing this object - please refresh the page and try again." },
} as const satisfies ErrorTexts);
