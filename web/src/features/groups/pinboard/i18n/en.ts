/** The "pinboard" namespace in English: the pinboard page (spec 002 §2, §9). */
export const en = {
  loading: "Decrypting cards…",
  /** Spec 002 §8: one card, with its comments, did not load. */
  loadFailed: "Error loading this item!",
  board: "Cards",
  untitled: "(untitled)",
  invalid: "Invalid item",
  view: "View",
  viewCard: "View {{title}}",
  viewer: {
    body: "Text",
    close: "Close",
    attachments: "Attachments",
  },
};
