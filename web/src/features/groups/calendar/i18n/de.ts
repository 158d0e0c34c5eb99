import type { Texts } from "../../../../lib/i18n";
import type { en } from "./en";

/** The "calendar" namespace in German. */
export const de: Texts<typeof en> = {
  loading: "Karten werden entschlüsselt…",
  loadFailed: "Fehler beim Laden der Seitendaten vom Server!",
  untitled: "(ohne Titel)",
  calendar: "Kalender",
  miniMonth: "Monatsübersicht",
  found_one: "{{count}} Termin gefunden",
  found_other: "{{count}} Termine gefunden",
  legend: "Legende",
  sources: { cards: "Karten" },
  parentFilter: "Filter",
  showAll: "Alle anzeigen",
  createNew: "Neu: {{singular}}",
  singular: "Karte",
  notAllowed: "Du darfst diese Seite nicht ändern!",
  moveFailed: "Beim Verschieben dieser Einträge ist ein Fehler aufgetreten. Details stehen in der Konsole.",
  dismiss: "Schliessen",
  buttons: { today: "Heute", month: "Monat", week: "Woche", day: "Tag", previous: "Zurück", next: "Weiter" },
  week: "KW",
  allDay: "Ganztägig",
  more: "+{{count}} weitere",
  noEvents: "Keine Termine",
  viewer: { time: "Zeit", content: "Inhalt", tags: "Tags", edit: "Bearbeiten", close: "Schliessen" },
};
