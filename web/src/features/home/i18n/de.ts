import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "home" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    home: "Start",
  },
  create: "Erstellen",
  newConversation: "Neue Unterhaltung",
  newGroup: "Neue Gruppe",
  newPickup: "Neue Abholung",
  greeting: "Hallo, {{name}}!",
  groups: "Gruppen",
  noGroups: "Noch keine Gruppen",
  noGroupsHint: "Gruppen, in denen du Mitglied bist, erscheinen hier.",
  conversations: "Unterhaltungen",
  noConversations: "Noch keine Unterhaltungen",
  noConversationsHint: "Deine Unterhaltungen und Abholungen erscheinen hier.",
};
