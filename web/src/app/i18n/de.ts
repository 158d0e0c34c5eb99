import type { Texts } from "../../lib/i18n";
import type { en } from "./en";

/** The "shell" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    notFound: "Nicht gefunden",
    menu: "Menü",
  },
  mainMenu: "Hauptmenü",
  home: "Start",
  goHome: "Zur Startseite",
  openSettings: "Einstellungen öffnen",
  userMenu: "Benutzermenü",
  settings: "Einstellungen",
  admin: "Administration",
  invite: "Einladen",
  logout: "Abmelden",
  logoutPlain: "Abmelden",
  logoutKeepCache: "Abmelden und lokalen Cache behalten",
  logoutWipe: "Alles löschen und abmelden",
  status: "Status",
  statusCurrent: "Status: {{status}}",
  statusOnline: "Online",
  statusAway: "Abwesend",
  statusBusy: "Beschäftigt",
  statusOffline: "Offline",
  recently: "Zuletzt",
  nothingRecent: "Noch nichts!",
  openNavigation: "Navigation öffnen",
  closeNavigation: "Navigation schliessen",
  expandMenu: "Menü erweitern",
  collapseMenu: "Menü verkleinern",
  groupMenu: "Seiten von {{name}}",
  staging: "Testumgebung",
  notFound: {
    text: "Der angeforderte Inhalt wurde nicht gefunden.",
    home: "Zurück zur Startseite",
  },
  conversations: {
    allConversations: "Alle Unterhaltungen",
    newConversationMenu: "Neue Unterhaltung",
    unread: "Ungelesen",
    popover: {
      label: "Unterhaltungen",
    },
  },
  pickups: {
    guest: {
      menuItem: "Deine Abholung",
    },
  },
};
