import { registerErrors, type ErrorTexts } from "../errors";

/** Motes (cards) and their comments: each code's HTTP status and user-facing text (the spec's wording where it has one, spec 001 §5, §8). */
export const moteErrors = registerErrors({
  mote_not_found: { status: 404, text: "This item does not exist any more - please refresh the page." },
  mote_page_invalid: { status: 422, text: "Items go onto a page of this group (not the drive, members or conversation page)." },
  mote_read_only: { status: 403, text: "Not allowed to edit or create items from this page!" },
  mote_edit_forbidden: { status: 403, text: "You do not have access to edit this object." },
  mote_patch_invalid: { status: 422, text: "Invalid parameters!" },
  mote_invalid: { status: 422, text: "Invalid mote parameters!" },
  mote_relation_invalid: { status: 422, text: "A relationship points at an item of this group." },
  mote_comments_full: { status: 422, text: "This item holds as many comments as it can." },
  comment_not_found: { status: 404, text: "This comment does not exist any more - please refresh the page." },
  comment_delete_forbidden: { status: 403, text: "You may delete only your own comments." },
} as const satisfies ErrorTexts);
