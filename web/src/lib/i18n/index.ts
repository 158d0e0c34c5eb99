import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { PREFERENCE_PREFIX } from "../storage";
import { de as commonDe } from "./common/de";
import { en as commonEn } from "./common/en";
import { de as errorsDe } from "./errors/de";
import { en as errorsEn } from "./errors/en";

export const LANGUAGES = ["en", "de"] as const;
export type Language = (typeof LANGUAGES)[number];

/** A namespace's texts in another language: exactly the English keys (type-checked parity). */
export type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

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

/**
 * Namespaces: `common` (shared texts) and `errors` (one per API error code) load with the app;
 * the shell and every feature bring their own (app/i18n, features/<area>/i18n), registered by
 * `addTranslations` when their code loads, so a lazy route's strings come with its chunk. The
 * types of all of them are declared in app/i18next.d.ts.
 */
void i18next.use(initReactI18next).init({
  resources: { en: { common: commonEn, errors: errorsEn }, de: { common: commonDe, errors: errorsDe } },
  ns: ["common", "errors"],
  defaultNS: "common",
  lng: initialLanguage(),
  fallbackLng: "en",
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false,
});

/** Registers a namespace in both languages (once; a second registration of the same texts changes nothing). */
export function addTranslations<T extends object>(ns: string, texts: { en: T; de: Texts<T> }): void {
  for (const language of LANGUAGES) {
    if (!i18next.hasResourceBundle(language, ns)) i18next.addResourceBundle(language, ns, texts[language]);
  }
}

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
