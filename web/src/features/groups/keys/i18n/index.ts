import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The groupKeys namespace (a group's keys, creating a group), registered when this module loads. */
export const ns = "groupKeys";
addTranslations(ns, { en, de });
