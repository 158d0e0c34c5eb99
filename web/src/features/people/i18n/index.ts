import { addTranslations } from "../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The people namespace (the person selector), registered when this module loads. */
export const ns = "people";
addTranslations(ns, { en, de });
