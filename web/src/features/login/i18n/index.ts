import { addTranslations } from "../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/**
 * The login namespace, registered when this module loads: every file that translates imports
 * `ns` from here, so the strings travel with the code that shows them (a lazy route's chunk).
 */
export const ns = "login";
addTranslations(ns, { en, de });
