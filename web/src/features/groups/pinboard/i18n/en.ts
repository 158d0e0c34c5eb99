/** The "pinboard" namespace in English: the pinboard page (spec 002 §2, §9). */
export const en = {
  loading: "Decrypting cards…",
  loadFailed: "Error loading page data from server!",
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
