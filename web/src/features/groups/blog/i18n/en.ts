/** The "blog" namespace in English: the blog page (spec 002 §2 Blog, §9). */
export const en = {
  posts: "Posts",
  untitled: "(untitled)",
  invalid: "Invalid item",
  more: "More",
  moreOf: "More of {{title}}",
  less: "Less",
  lessOf: "Less of {{title}}",
  body: "Text of {{title}}",
  /** Spec 002 §8: the post, with its comments, did not load. */
  commentsFailed: "Error loading this item!",
  attachments: "Attachments",
  openImage: "Show {{name}}",
  previous: "Previous attachment",
  next: "Next attachment",
  position: "{{n}} / {{total}}",
};
