import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The drive namespace (a group's drive page), registered when this module loads. */
export const ns = "drive";
addTranslations(ns, { en, de });
