import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "setup" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    setup: "Einrichtung",
  },
  heading: "{{title}} einrichten",
  intro: "Erstelle die erste Administratorin oder den ersten Administrator dieser Instanz.",
  name: "Name",
  email: "E-Mail-Adresse",
  password: "Passwort",
  passwordConfirmation: "Passwort bestätigen",
  submit: "Administrator erstellen",
  alreadySetUp: "Diese Instanz ist bereits eingerichtet.",
  goToLogin: "Zur Anmeldung",
  missingToken: "Dieser Einrichtungslink ist unvollständig. Öffne den vollständigen Link, den der Server ausgegeben hat.",
  failed: "Fehler beim Einrichten dieser Instanz. Bitte versuche es später erneut.",
};
