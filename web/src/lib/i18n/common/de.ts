import type { Texts } from "..";
import type { en } from "./en";

/** The "common" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  revealToggle: "Eingabe zeigen oder verbergen",
  unexpected: "Etwas ist schiefgelaufen. Bitte lade die Seite neu.",
  reload: "Neu laden",
  ok: "OK",
  close: "Schliessen",
  cancel: "Abbrechen",
  error: "Fehler",
  save: "Speichern",
  back: "Zurück",
  loading: "Wird geladen…",
  saved: "Deine Änderungen wurden gespeichert.",
  notSet: "Nicht angegeben",
  copyCode: "Code kopieren",
  copied: "Kopiert",
  failed: {
    network: "Der Server ist nicht erreichbar. Bitte prüfe deine Verbindung und versuche es nochmals.",
    server: "Serverfehler {{status}}. Bitte versuche es später nochmals.",
    refused: "Der Server hat diese Anfrage abgelehnt ({{status}}).",
  },
  validation: {
    nameRequired: "Bitte gib deinen Namen ein.",
    invalidEmail: "Bitte gib eine gültige E-Mail-Adresse ein.",
    invalidPhone: "Eine Telefonnummer besteht aus einem Pluszeichen, gefolgt von 6 bis 30 Ziffern oder Leerzeichen.",
    passwordRequired: "Bitte gib dein Passwort ein.",
    passwordTooShort: "Das Passwort muss mindestens {{min}} Zeichen lang sein.",
    passwordMismatch: "Die Passwörter stimmen nicht überein.",
    sixDigits: "Gib den 6-stelligen Code ein.",
  },
  limit: {
    count: "{{count}} von {{max}} Zeichen",
    over: "Zu lang: höchstens {{max}} Zeichen, dieser Text hat {{count}}.",
  },
  trust: {
    untrusted_key: "Warnung: Der Schlüssel dieser Person hat sich geändert, ohne dass ihr bisheriger Schlüssel die Änderung signiert oder eine Administratorin sie beglaubigt hat. Jemand versucht womöglich, deine Nachrichten mitzulesen. Bis das geklärt ist, wird nichts für diese Person verschlüsselt: Vergleiche die Sicherheitsnummern persönlich.",
    stale_key: "Warnung: Der Server hat für diese Person einen älteren Schlüssel geliefert als den, den du schon gesehen hast. Bis das geklärt ist, wird nichts für diese Person verschlüsselt.",
    uncertified_key:
      "Warnung: Der Schlüssel dieser Person stammt aus Version 1 und wurde von keiner Administratorin beglaubigt, was diese Instanz verlangt. Jemand versucht womöglich, deine Nachrichten mitzulesen. Bis eine Administratorin ihren Schlüssel beglaubigt, wird nichts für diese Person verschlüsselt.",
    no_key: "Ungültiges Schlüsselpaar für diese Person hinterlegt",
    lookup: "Fehler beim Nachschlagen der Person",
    pins_rolled_back:
      "Warnung: Der Server hat eine ältere Kopie deiner gespeicherten Kontaktschlüssel geliefert, als dieser Browser schon gesehen hat. Jemand versucht womöglich, dich Schlüssel annehmen zu lassen, die du schon ersetzt hattest. Bis das geklärt ist, wird für niemanden etwas verschlüsselt.",
    pins_dropped:
      "Warnung: Der Server hat keine Kopie deiner gespeicherten Kontaktschlüssel geliefert oder eine, die sich nicht öffnen lässt, obwohl dieser Browser schon eine gesehen hat. Jemand versucht womöglich, dich ungeprüfte Schlüssel annehmen zu lassen. Bis das geklärt ist, wird für niemanden etwas verschlüsselt.",
    pins_forked:
      "Warnung: Der Server hat eine Kopie deiner gespeicherten Kontaktschlüssel geliefert, die nicht auf die folgt, die dieser Browser gesehen hat: Einem anderen deiner Browser wurde eine ältere Kopie gezeigt, und er hat darüber gespeichert. Jemand versucht womöglich, dich Schlüssel annehmen zu lassen, die du schon ersetzt hattest. Bis das geklärt ist, wird für niemanden etwas verschlüsselt.",
    pinsAdvice: "Frag deine Administratorin, ob der Server aus einer Sicherung wiederhergestellt wurde. Nur dann: Verwende die Kopie des Servers; die Schlüssel deiner Kontakte werden dann von vorn geprüft.",
    pinsAccept: "Kopie des Servers verwenden",
    pinsConfirm: "Die Kopie des Servers verwenden und die Schlüssel aller Kontakte von vorn prüfen?",
    pinsConfirmYes: "Ja, verwenden",
    pinsCancel: "Abbrechen",
  },
  pickupWeak:
    "Diese Abholung verlangt einen schwächeren Schutz, als diese App zulässt ({{memory}} MiB und {{passes}} Durchläufe; nötig sind mindestens {{minMemory}} MiB und {{minPasses}} Durchläufe). Es wurde nichts berechnet oder gesendet. Der Server wurde möglicherweise manipuliert: Bitte benachrichtige die Person, die dir den Link geschickt hat.",
  keyLookup: {
    clock: "Die Uhrzeiten von Server und Gerät weichen zu stark voneinander ab!",
    invalid: "Ungültiges Schlüsselpaar für diese Person hinterlegt",
    userFailed: "Fehler beim Nachschlagen der Person",
    keyFailed: "Fehler beim Abrufen der Schlüsseldaten",
  },
  languages: {
    en: "English",
    de: "Deutsch",
  },
};
