import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The "pinboard" namespace (a group's pinboard page), registered when this module loads. */
export const ns = "pinboard";
addTranslations(ns, { en, de });
