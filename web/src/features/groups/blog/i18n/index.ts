import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The "blog" namespace (a group's blog page), registered when this module loads. */
export const ns = "blog";
addTranslations(ns, { en, de });
