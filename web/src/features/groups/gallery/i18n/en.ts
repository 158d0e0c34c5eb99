/** The "gallery" namespace in English: the gallery page (spec 002 §2 Gallery). */
export const en = {
  grid: "Pictures",
  untitled: "(untitled)",
  open: "Open {{title}}",
};
