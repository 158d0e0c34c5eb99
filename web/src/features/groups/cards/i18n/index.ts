import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The "cards" namespace: the card editor popup (spec 001 §2, §4, §5, §8), registered when this module loads. */
export const ns = "cards";
addTranslations(ns, { en, de });
