import type { Texts } from "../../../../lib/i18n";
import type { en } from "./en";

/** The "blog" namespace in German. */
export const de: Texts<typeof en> = {
  posts: "Beiträge",
  untitled: "(ohne Titel)",
  invalid: "Ungültiger Eintrag",
  more: "Mehr",
  moreOf: "Mehr von {{title}}",
  less: "Weniger",
  lessOf: "Weniger von {{title}}",
  body: "Text von {{title}}",
  commentsFailed: "Fehler beim Laden dieses Eintrags!",
  attachments: "Anhänge",
  openImage: "{{name}} anzeigen",
  previous: "Vorheriger Anhang",
  next: "Nächster Anhang",
  position: "{{n}} / {{total}}",
};
