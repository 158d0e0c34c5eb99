import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The "gallery" namespace (a group's gallery page), registered when this module loads. */
export const ns = "gallery";
addTranslations(ns, { en, de });
