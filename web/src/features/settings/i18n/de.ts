import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "settings" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    settings: "Einstellungen",
  },
  version: {
    client: "Client-Version {{version}}",
    api: "API-Version {{version}}",
  },
  heading: "Einstellungen",
  profile: "Profil",
  name: "Name",
  email: "E-Mail",
  phone: "Telefon",
  saveName: "Namen speichern",
  password: "Passwort",
  oldPassword: "Aktuelles Passwort",
  newPassword: "Neues Passwort",
  confirmPassword: "Neues Passwort bestätigen",
  savePassword: "Passwort speichern",
  passwordRules: "Mindestens {{min}} Zeichen. Das neue Passwort und seine Bestätigung müssen übereinstimmen.",
  saveFailed: "Fehler beim Speichern der Änderungen!",
  loadFailed: "Fehler beim Laden deiner Kontodaten.",
  totp: "Zwei-Faktor-Authentifizierung",
  totpOn: "Die Zwei-Faktor-Authentifizierung ist aktiviert.",
  totpOff: "Die Zwei-Faktor-Authentifizierung ist nicht aktiviert.",
  language: "Sprache",
  advanced: "Erweitert",
  about: "Über diese App",
  twoFactor: {
    manage: "Zwei-Faktor-Authentifizierung einrichten",
  },
  keys: {
    secureCode: "Sicherheitscode",
    wrongCode: "Fehler beim Entschlüsseln deines Schlüssels.",
    busy: {
      unlocking: "Dein Schlüssel wird entsperrt… Das dauert einen Moment.",
    },
    unlock: {
      submit: "Entsperren",
    },
    import: {
      failed: "Fehler beim Importieren deiner Schlüsseldatei...",
      otherKey: "Diese Datei enthält einen anderen Schlüssel als deinen aktuellen.",
    },
  },
  key: {
    heading: "Dein Schlüssel",
    export: "Verschlüsselten Sicherungsschlüssel exportieren",
    exportHint: "Eine Datei mit deinem Schlüssel, verschlüsselt mit deinem Sicherheitscode. Bewahre sie sicher auf.",
    exportFailed: "Fehler beim Exportieren deines Schlüssels.",
    import: "Schlüsseldatei importieren",
    imported: "Deine Schlüsseldatei wurde importiert.",
    importTitle: "Importierten Schlüssel entsperren",
    show: "Schlüsselpaar-Daten anzeigen",
    hide: "Schlüsselpaar-Daten verbergen",
    loadFailed: "Fehler beim Abrufen der Schlüsseldaten",
    id: "Schlüssel-ID",
    type: "Typ",
    created: "Erstellt",
    registered: "Registriert",
    valid: "Gültig",
    yes: "Ja",
    no: "Nein",
    encryptFingerprint: "Fingerabdruck des Verschlüsselungsschlüssels",
    signFingerprint: "Fingerabdruck des Signaturschlüssels",
    accountFingerprint: "Fingerabdruck des Kontos",
    signature: "Signatur",
    verified: "Geprüft",
  },
};
