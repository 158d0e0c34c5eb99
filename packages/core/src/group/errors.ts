import { registerErrors, type ErrorTexts } from "../errors";

/** Groups, pages, members, roles and group keys: each code's HTTP status and user-facing text (the spec's wording where it has one, spec 001 §8, spec 000 §5). */
export const groupErrors = registerErrors({
  group_not_found: { status: 404, text: "Error loading group data from server!" },
  group_forbidden: { status: 403, text: "You are not allowed to do this in this group." },
  group_name_missing: { status: 422, text: "Please enter a name for your group." },
  group_options_invalid: { status: 422, text: "Error setting group options!" },
  member_missing: { status: 404, text: "This member has already been removed - please refresh the page." },
  member_zeroadmin: { status: 422, text: "You cannot remove the last group administrator from this group." },
  member_exists: { status: 409, text: "This person is already a member of this group." },
  member_remove_creator: { status: 422, text: "You created this group, so you cannot remove yourself from it." },
  page_not_found: { status: 404, text: "Error loading page data from server!" },
  page_forbidden: { status: 403, text: "You are not allowed to access this page!" },
  page_name_missing: { status: 422, text: "Please enter a name for your page." },
  page_internal: { status: 422, text: "You cannot currently delete internal pages such as drive, members, etc." },
  page_no_options: { status: 422, text: "This page has no configurable options." },
  page_menu_invalid: { status: 422, text: "Error setting page menu options!" },
  /** Spec 002 §6, §8: only super administrators save a calendar's filters as autofilters; the calendar's 403 text. */
  page_autofilters_forbidden: { status: 403, text: "You are not allowed to alter this page!" },
  page_reserved_name: { status: 422, text: "The name of a built-in page cannot be changed." },
  permit_forbidden: { status: 403, text: "You do not have access to edit this object." },
  permit_invalid: { status: 422, text: "Error editing this object - please refresh the page and try again." },
  role_not_found: { status: 404, text: "This role does not exist any more - please refresh the page." },
  role_name_missing: { status: 422, text: "Please enter a name for the role." },
  role_admin: { status: 422, text: "The admin role cannot be deleted or taken away." },
  role_assigned: { status: 422, text: "This member has this role already." },
  role_not_assigned: { status: 422, text: "This member does not have this role." },
  page_key_invalid: { status: 422, text: "This page's key is for its readers only - please refresh the page and try again." },
  page_key_stale: { status: 409, text: "This page's key has changed - please refresh the page and try again." },
  page_key_required: { status: 409, text: "This page is encrypted for its readers only, and an administrator has not given you its key yet." },
  page_key_unexpected: { status: 422, text: "This page is readable by the whole group - please refresh the page and try again." },
  group_rekey_invalid: { status: 422, text: "A new key must follow the current one and carry it." },
} as const satisfies ErrorTexts);
