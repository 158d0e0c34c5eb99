/** Keys of this app in localStorage all start with this prefix. */
export const STORAGE_PREFIX = "sealwork.";
/** Preferences that are not user data (language, menu width); they survive a plain logout. */
export const PREFERENCE_PREFIX = `${STORAGE_PREFIX}pref.`;
/**
 * What this browser learned to trust about the instance (its anchors, docs/protocol.md §14.10):
 * not user data, and it survives a plain logout, so that a server that withholds a user's pins
 * cannot have the next sign-in here pin another root.
 */
export const TRUST_PREFIX = `${STORAGE_PREFIX}trust.`;
