import type { Texts } from "../../../lib/i18n";
import type { en } from "./en";

/** The "invite" namespace in German: typed to have exactly the English keys. */
export const de: Texts<typeof en> = {
  titles: {
    invite: "Einladen",
  },
  login: {
    phonePlaceholder: "+41 79 123 45 67",
  },
  heading: "Benutzer einladen",
  email: "E-Mail-Adresse",
  phone: "Telefonnummer",
  groups: "Gruppen",
  roles: "Rollen",
  roleAdmin: "Administrator",
  roleSuper: "Super-Administrator",
  sendEmail: "Einladungs-E-Mail senden",
  message: "Nachricht",
  submit: "Einladung senden",
  submitting: "Temporäre Schlüssel für diese Einladung werden erstellt… Das dauert einen Moment.",
  forwarding: "Die Einladung wird gesendet…",
  startOver: "Neu beginnen",
  created: {
    text: "Die Einladung für {{email}} wurde erstellt.",
    hint: "Gib diesen Einladungscode der eingeladenen Person auf einem anderen Weg weiter (persönlich oder per Telefon). Er steht nicht in der E-Mail und wird nicht mehr angezeigt. Sie braucht ihn nach der Registrierung.",
    codeLabel: "Einladungscode",
    another: "Weitere Person einladen",
  },
  errors: {
    superOnly: "Nur eine Super-Administratorin oder ein Super-Administrator kann Super-Administratoren einladen.",
    server: "Serverfehler {{status}} beim Senden deiner Einladung. Bitte versuche es später erneut.",
    keys: "Fehler beim Erstellen der temporären Schlüssel für diese Einladung. Bitte schliesse die App und versuche es erneut.",
    corrupt: "Beim Senden dieser Einladung ist ein nicht behebbarer Fehler aufgetreten; sie ist möglicherweise beschädigt. Bitte sende die Einladung in der Administration erneut.",
  },
};
