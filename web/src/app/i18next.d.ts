import type { en as about } from "../features/about/i18n/en";
import type { en as admin } from "../features/admin/i18n/en";
import type { en as blog } from "../features/groups/blog/i18n/en";
import type { en as calendar } from "../features/groups/calendar/i18n/en";
import type { en as cards } from "../features/groups/cards/i18n/en";
import type { en as conversations } from "../features/conversations/i18n/en";
import type { en as drive } from "../features/groups/drive/i18n/en";
import type { en as gallery } from "../features/groups/gallery/i18n/en";
import type { en as groupKeys } from "../features/groups/keys/i18n/en";
import type { en as groupMembers } from "../features/groups/members/i18n/en";
import type { en as groups } from "../features/groups/i18n/en";
import type { en as home } from "../features/home/i18n/en";
import type { en as invite } from "../features/invite/i18n/en";
import type { en as keys } from "../features/keys/i18n/en";
import type { en as login } from "../features/login/i18n/en";
import type { en as pinboard } from "../features/groups/pinboard/i18n/en";
import type { en as people } from "../features/people/i18n/en";
import type { en as settings } from "../features/settings/i18n/en";
import type { en as setup } from "../features/setup/i18n/en";
import type { en as totp } from "../features/totp/i18n/en";
import type { en as common } from "../lib/i18n/common/en";
import type { en as errors } from "../lib/i18n/errors/en";
import type { en as shell } from "./i18n/en";

/**
 * Every namespace's keys, so `t` checks them: lib's common and errors, the shell's, and one per
 * feature (a new feature adds its line here).
 */
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: {
      common: typeof common;
      errors: typeof errors;
      shell: typeof shell;
      about: typeof about;
      admin: typeof admin;
      blog: typeof blog;
      calendar: typeof calendar;
      cards: typeof cards;
      conversations: typeof conversations;
      drive: typeof drive;
      gallery: typeof gallery;
      groupKeys: typeof groupKeys;
      groupMembers: typeof groupMembers;
      groups: typeof groups;
      home: typeof home;
      invite: typeof invite;
      keys: typeof keys;
      login: typeof login;
      people: typeof people;
      pinboard: typeof pinboard;
      settings: typeof settings;
      setup: typeof setup;
      totp: typeof totp;
    };
  }
}
