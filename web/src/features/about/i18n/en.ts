/** The "about" namespace in English: the about feature. German (de.ts) must have exactly these keys. */
export const en = {
  titles: {
    about: "About",
  },
  heading: "About this app",
  client: "Client version {{version}}",
  api: "API version {{version}}",
};
