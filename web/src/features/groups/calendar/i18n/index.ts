import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The "calendar" namespace (a group's calendar page), registered when this module loads. */
export const ns = "calendar";
addTranslations(ns, { en, de });
