import type { Texts } from "../../../../lib/i18n";
import type { en } from "./en";

/** The "gallery" namespace in German. */
export const de: Texts<typeof en> = {
  grid: "Bilder",
  untitled: "(ohne Titel)",
  open: "{{title}} öffnen",
};
