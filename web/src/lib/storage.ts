/** Keys of this app in localStorage all start with this prefix. */
export const STORAGE_PREFIX = "sealwork.";
/** Preferences that are not user data (language, menu width); they survive a plain logout. */
export const PREFERENCE_PREFIX = `${STORAGE_PREFIX}pref.`;
