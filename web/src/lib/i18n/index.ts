import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { PREFERENCE_PREFIX } from "../storage";
import { de } from "./de";
import { en } from "./en";

export const LANGUAGES = ["en", "de"] as const;
export type Language = (typeof LANGUAGES)[number];

const LANGUAGE_KEY = `${PREFERENCE_PREFIX}language`;

function isLanguage(value: string | null | undefined): value is Language {
  return LANGUAGES.includes(value as Language);
}

/** The stored choice, else the browser's language, else English. */
function initialLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = navigator.language.slice(0, 2).toLowerCase();
  return isLanguage(browser) ? browser : "en";
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, de: { translation: de } },
  lng: initialLanguage(),
  fallbackLng: "en",
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false,
});

document.documentElement.lang = i18next.language;
i18next.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});

export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.resolvedLanguage) ? i18next.resolvedLanguage : "en";
}

export { i18next };
