import type { Texts } from "../../../../lib/i18n";
import type { en } from "./en";

/** The "pinboard" namespace in German. */
export const de: Texts<typeof en> = {
  loading: "Karten werden entschlüsselt…",
  board: "Karten",
  untitled: "(ohne Titel)",
  invalid: "Ungültiger Eintrag",
  view: "Ansehen",
  viewCard: "{{title}} ansehen",
  edit: "Bearbeiten",
  editCard: "{{title}} bearbeiten",
  more: "Mehr laden",
  loadFailed: "Fehler beim Laden der Seitendaten vom Server!",
  media: {
    loading: "Medien werden entschlüsselt…",
    failed: "Fehler beim Entschlüsseln dieser Datei!",
    video: "Video",
  },
  viewer: {
    body: "Text",
    close: "Schliessen",
    attachments: "Anhänge",
    comments: "Kommentare",
    noComments: "Noch keine Kommentare.",
    newComment: "Neuer Kommentar",
    post: "Senden",
    delete: "Kommentar löschen",
    postFailed: "Beim Senden Ihres Kommentars ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut!",
    deleteFailed: "Beim Löschen Ihres Kommentars ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut!",
    invalidComment: "Dieser Kommentar kann nicht angezeigt werden.",
    unknownAuthor: "Unbekannt",
  },
};
