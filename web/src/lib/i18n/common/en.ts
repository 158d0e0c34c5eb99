/** The "common" namespace in English: shared by every screen (lib). German (de.ts) must have exactly these keys. */
export const en = {
  revealToggle: "Show or hide what you typed",
  unexpected: "Something went wrong. Please reload the page.",
  reload: "Reload",
  ok: "OK",
  close: "Close",
  cancel: "Cancel",
  error: "Error",
  save: "Save",
  back: "Back",
  loading: "Loading…",
  saved: "Your changes were saved.",
  notSet: "Not set",
  copyCode: "Copy code",
  copied: "Copied",
  failed: {
    network: "The server could not be reached. Please check your connection and try again.",
    server: "Server error {{status}}. Please try again later.",
    refused: "The server refused this request ({{status}}).",
  },
  validation: {
    nameRequired: "Please enter your name.",
    invalidEmail: "Please enter a valid email address.",
    invalidPhone: "A phone number is a plus sign followed by 6 to 30 digits or spaces.",
    passwordRequired: "Please enter your password.",
    passwordTooShort: "The password must be at least {{min}} characters long.",
    passwordMismatch: "The passwords do not match.",
    sixDigits: "Enter the 6-digit code.",
  },
  limit: {
    count: "{{count}} of {{max}} characters",
    over: "Too long: at most {{max}} characters, this has {{count}}.",
  },
  trust: {
    untrusted_key: "Warning: this person's key has changed, and the change is not signed by their previous key or certified by an administrator. Someone may be trying to read your messages. Nothing is encrypted for them until this is cleared up: compare safety numbers with them in person.",
    stale_key: "Warning: the server answered an older key for this person than the one you have seen before. Nothing is encrypted for them until this is cleared up.",
    uncertified_key:
      "Warning: this person's key is from version 1 and no administrator has certified it, which this instance requires. Someone may be trying to read your messages. Nothing is encrypted for them until an administrator certifies their key.",
    no_key: "Invalid keypair on record for user",
    lookup: "Error looking up user",
    pins_rolled_back:
      "Warning: the server answered an older copy of your saved contact keys than this browser has seen before. Someone may be trying to make you accept keys you had already replaced. Nothing is encrypted for anyone until this is cleared up.",
    pins_dropped:
      "Warning: the server answered no copy of your saved contact keys, or one that does not open, although this browser has seen one before. Someone may be trying to make you accept keys you never checked. Nothing is encrypted for anyone until this is cleared up.",
    pins_forked:
      "Warning: the server answered a copy of your saved contact keys that does not follow from the one this browser has seen: another of your browsers was shown an older copy and saved over it. Someone may be trying to make you accept keys you had already replaced. Nothing is encrypted for anyone until this is cleared up.",
    pinsAdvice: "Ask your administrator whether the server was restored from a backup. Only if it was, use the server's copy: your contacts' keys are then checked again from the start.",
    pinsAccept: "Use the server's copy",
    pinsConfirm: "Use the server's copy and check every contact's key again from the start?",
    pinsConfirmYes: "Yes, use it",
    pinsCancel: "Cancel",
  },
  /** The guest refuses a lookup answer below the Argon2id floor (issue 11, item 5). */
  pickupWeak:
    "This pickup asks for weaker protection than this app accepts ({{memory}} MiB and {{passes}} passes; at least {{minMemory}} MiB and {{minPasses}} passes are needed). Nothing was computed or sent. The server may have been tampered with: please tell the person who sent you the link.",
  keyLookup: {
    clock: "Server and client time are too different!",
    invalid: "Invalid keypair on record for user",
    userFailed: "Error looking up user",
    keyFailed: "Error retrieving keypair data",
  },
  languages: {
    en: "English",
    de: "Deutsch",
  },
};
