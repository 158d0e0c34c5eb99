/** The "people" namespace in English: the person selector (spec 000 §9). German (de.ts) must have exactly these keys. */
export const en = {
  search: "Search people",
  searchHint: "Type part of a name",
  results: "People found",
  none: "Nobody found.",
  more: "Show more",
  picked: "Picked",
  failed: "Server error while searching. Please try again later.",
};
