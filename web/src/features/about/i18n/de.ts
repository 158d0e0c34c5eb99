import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "about" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    about: "Über",
  },
  heading: "Über diese App",
  client: "Client-Version {{version}}",
  api: "API-Version {{version}}",
};
