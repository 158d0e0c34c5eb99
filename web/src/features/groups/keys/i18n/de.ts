import type { Texts } from "../../../../lib/i18n";
import type { en } from "./en";

/** The "groupKeys" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  distribution: {
    heading: "Diese Gruppe ist gesperrt",
    movedHeading: "Diese Gruppe wartet auf ihren Schlüssel",
    log_fork:
      "Der Verlauf der Mitglieder dieser Gruppe ist nicht der, den dieser Browser zuvor geprüft hat, oder nicht der, in dem ein anderes Mitglied seine Nachricht gesendet hat: Der Server zeigt womöglich verschiedenen Personen verschiedene oder ältere Verläufe. Bis das geklärt ist, wird in dieser Gruppe nichts angezeigt oder geschrieben.",
    log_invalid: "Der Verlauf der Mitglieder dieser Gruppe lässt sich nicht prüfen: Eine Änderung wurde nicht von jemandem signiert, der dazu berechtigt ist. In dieser Gruppe wird nichts angezeigt oder geschrieben.",
    ghost_participant: "Der Schlüsseleintrag dieser Gruppe nennt jemanden, der laut dem signierten Verlauf kein Mitglied ist. Der Schlüssel wird abgelehnt: In dieser Gruppe wird nichts angezeigt oder geschrieben.",
    record_invalid: "Der Schlüsseleintrag dieser Gruppe passt nicht zum signierten Verlauf ihrer Mitglieder. Der Schlüssel wird abgelehnt: In dieser Gruppe wird nichts angezeigt oder geschrieben.",
    copy_invalid: "Der Schlüssel, den du für diese Gruppe erhalten hast, stammt nicht von einem ihrer Administratoren oder ist nicht der zugesagte. Er wird abgelehnt: In dieser Gruppe wird nichts angezeigt oder geschrieben.",
    key_moved: "Dein Schlüssel wurde erneuert oder zurückgesetzt, seit der Schlüssel dieser Gruppe zuletzt verteilt wurde; er ging an einen Schlüssel, den du nicht mehr hast. Sie öffnet sich wieder, sobald ein Gruppenadministrator sie öffnet und ihren Schlüssel für alle erneuert.",
    waiting: "Dein Schlüssel für diese Gruppe wurde noch nicht übergeben. Er kommt, sobald ein Gruppenadministrator online ist.",
    rekeyPending: "Ein Mitglied hat diese Gruppe verlassen. Nachrichten warten, bis der Browser eines Gruppenadministrators den Gruppenschlüssel erneuert; das geschieht, sobald einer online ist.",
  },
  conversation: {
    loading: "Die Nachrichten der Gruppe werden geöffnet…",
  },
  status: {
    ready: "Gruppenschlüssel geprüft (Epoche {{epoch}})",
  },
  create: {
    title: "Neue Gruppe",
    name: "Name",
    nameMissing: "Bitte gib einen Namen für deine Gruppe ein.",
    members: "Erste Mitglieder",
    submit: "Gruppe erstellen",
    failed: "Fehler beim Erstellen der Gruppe. Bitte versuche es später noch einmal!",
  },
  people: {
    remove: "{{name}} entfernen",
  },
};
