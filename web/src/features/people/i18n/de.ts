import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "people" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  search: "Personen suchen",
  searchHint: "Einen Teil des Namens eingeben",
  results: "Gefundene Personen",
  none: "Niemand gefunden.",
  more: "Mehr anzeigen",
  picked: "Ausgewählt",
  failed: "Serverfehler bei der Suche. Bitte später erneut versuchen.",
};
