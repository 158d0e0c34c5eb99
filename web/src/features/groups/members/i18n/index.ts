import { addTranslations } from "../../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The groupMembers namespace (the members page), registered when this module loads. */
export const ns = "groupMembers";
addTranslations(ns, { en, de });
