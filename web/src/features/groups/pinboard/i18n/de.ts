import type { Texts } from "../../../../lib/i18n";
import type { en } from "./en";

/** The "pinboard" namespace in German. */
export const de: Texts<typeof en> = {
  loading: "Karten werden entschlüsselt…",
  loadFailed: "Fehler beim Laden dieses Eintrags!",
  board: "Karten",
  untitled: "(ohne Titel)",
  invalid: "Ungültiger Eintrag",
  view: "Ansehen",
  viewCard: "{{title}} ansehen",
  viewer: {
    body: "Text",
    close: "Schliessen",
    attachments: "Anhänge",
  },
};
