import { addTranslations } from "../../../lib/i18n";
import { de } from "./de";
import { en } from "./en";

/** The groups namespace (the group frame, pages, menu and settings), registered when this module loads. */
export const ns = "groups";
addTranslations(ns, { en, de });
