import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "login" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    login: "Anmelden",
  },
  heading: "Bei {{title}} anmelden",
  method: "Anmeldeart",
  modePhone: "Telefon",
  modeEmail: "E-Mail",
  modePickup: "Abholung",
  phone: "Telefonnummer",
  phonePlaceholder: "+41 79 123 45 67",
  email: "E-Mail-Adresse",
  emailPlaceholder: "name@beispiel.ch",
  continue: "Weiter",
  signingInAs: "Anmeldung als {{recognition}}",
  password: "Passwort",
  totp: "2FA-Code",
  totpHint: "Der 6-stellige Code aus deiner Authenticator-App.",
  submit: "Anmelden",
  notSetUp: "Diese Instanz ist noch nicht eingerichtet. Öffne den Einrichtungslink, den der Server ausgegeben hat.",
  passwordChanged: "Dein Passwort wurde geändert - bitte melde dich erneut an.",
  recoveryWarning: "Du hast dich mit einem 2FA-Wiederherstellungscode angemeldet. Bitte richte die Zwei-Faktor-Authentifizierung in deinen Einstellungen neu ein.",
  lookupFailed: "Serverfehler beim Prüfen deiner Anmeldedaten. Bitte versuche es später erneut.",
  register: {
    heading: "Konto erstellen",
    codeSent: "Wir haben einen 6-stelligen Bestätigungscode an {{contact}} gesendet.",
    name: "Name",
    password: "Passwort",
    passwordVerification: "Passwort bestätigen",
    code: "Bestätigungscode",
    submit: "Registrieren",
    resend: "Neuen Code senden",
    sendFailed: "Fehler beim Senden des Bestätigungscodes. Bitte versuche es später erneut.",
  },
  pickup: {
    code: "Abholcode",
    placeholder: "ABABA-12121",
    hint: "Gib den erhaltenen Abholcode ein oder füge den Abhollink ein.",
    invalid: "Ein Abholcode hat 10 Zeichen, zum Beispiel ABABA-12121.",
    incorrect: "Dieser Abholcode ist falsch oder abgelaufen...",
    needsLink: "Diese Abholung lässt sich nur mit ihrem Link öffnen. Bitte öffne den Link aus der E-Mail, die du erhalten hast.",
  },
  twoFactor: {
    useRecovery: "Einen Wiederherstellungscode verwenden",
    useCode: "Einen 2FA-Code verwenden",
    recovery: "Wiederherstellungscode",
    recoveryHint: "Einer der 10-stelligen Codes, die du beim Einrichten der Zwei-Faktor-Authentifizierung gespeichert hast.",
    recoveryInvalid: "Ein Wiederherstellungscode hat 10 Zeichen, etwa ABCDE-12345.",
  },
};
