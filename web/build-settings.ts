/**
 * Settings that weaken encryption are part of the tenant's SPA build, never of an API answer
 * (issue 11, item 3): a server that could switch secure codes off, or hand out the code every
 * key is wrapped under, could read every account key from the backups it stores. The build reads
 * them from its environment (`.env.<tenant>` for a deploy, the shell for `npm start`), checks them
 * and bakes them into the bundle; the SPA never asks the server.
 *
 * No imports: vite.config.ts and the Web stack (stacks/web.ts) both load this file.
 */
export interface BuildSettings {
  /** Every account's keys are wrapped under `defaultSecurecode`; nobody is asked for a code. */
  disableSecurecode: boolean;
  /** The instance's code while `disableSecurecode` is on (then required), else null. */
  defaultSecurecode: string | null;
}

/** The environment variables the build reads (the Web stack passes them to the build). */
export const BUILD_SETTING_NAMES = ["DISABLE_SECURECODE", "DEFAULT_SECURECODE"] as const;

const FLAG: Record<string, boolean> = { "": false, false: false, "0": false, true: true, "1": true };

/** Parses the settings; a wrong value or a missing default code fails the build, naming the setting. */
export function buildSettings(env: Record<string, string | undefined>): BuildSettings {
  const raw = (env.DISABLE_SECURECODE ?? "").trim().toLowerCase();
  const disableSecurecode = FLAG[raw];
  if (disableSecurecode === undefined) throw new Error(`DISABLE_SECURECODE must be true, false, 1 or 0, not "${env.DISABLE_SECURECODE}"`);
  const code = env.DEFAULT_SECURECODE ?? "";
  if (!disableSecurecode) return { disableSecurecode, defaultSecurecode: null };
  if (code.length === 0) throw new Error("DEFAULT_SECURECODE is required when DISABLE_SECURECODE is on");
  if (code.length > 1024) throw new Error("DEFAULT_SECURECODE is longer than 1024 characters");
  return { disableSecurecode, defaultSecurecode: code };
}

/** The variables the SPA reads (import.meta.env), as Vite's `define` takes them. */
export function viteDefines(settings: BuildSettings): Record<string, string> {
  return {
    "import.meta.env.VITE_DISABLE_SECURECODE": JSON.stringify(settings.disableSecurecode ? "true" : ""),
    "import.meta.env.VITE_DEFAULT_SECURECODE": JSON.stringify(settings.defaultSecurecode ?? ""),
  };
}

/**
 * The Vite mode of the malicious-server suite's build of the SPA (test/malicious; `vite build
 * --mode malicious-test`): the only build in which a test may switch one client check off
 * (`checkOff` in web/src/lib/build-settings.ts), to show that the attack it stops then works.
 * Every other build, a tenant's included (`vite build`, mode production), defines the flag
 * empty, and the minifier drops each switch with the code it guards. A mode, not an environment
 * variable, so that no setting of a deploy can turn it on.
 */
export const TEST_CHECKS_MODE = "malicious-test";

/**
 * The checks a test build can switch off, one at a time, and what each one guards. None of these
 * names may be in a production bundle (test/malicious checks).
 */
export const TEST_CHECK_NAMES = [
  /** lib/trust.ts: a contact's identity chain must rest on an instance anchor this client pinned. Off: any root the chain brings will do. */
  "identity-anchors",
  /** lib/trust.ts: a record older than the pinned one is stale_key. Off: the older record is pinned again. */
  "pin-seq",
  /**
   * lib/pins.ts: a pin book the server withholds (or spoils) starts from the instance anchors this
   * browser pinned before. Off: from nothing, so the roots the server shows are pinned at first use.
   */
  "pins-browser-anchors",
  /**
   * lib/pins.ts: a browser counts the saves of the pin book it saw, and refuses an older book or
   * none (the server replays or drops it). Off: it counts nothing, so the server's book is taken.
   */
  "pins-saves",
  /**
   * lib/trust.ts: a browser that has pinned no anchors pins the root the user's own identity rests
   * on, of the roots the server shows. Off: every root the server shows.
   */
  "anchors-own-chain",
  /**
   * lib/pins.ts: a browser remembers the mark of the newest pin book it saw, and refuses a book
   * whose line of saves does not hold it (the server forked two browsers' saves). Off: the count alone decides.
   */
  "pins-line",
  /**
   * features/keys: the anchor a key's backup is bound to is pinned at first use when the browser
   * has none. Off: not, so the user's own chain (or, with none, every root shown) decides.
   */
  "backup-anchor",
  /**
   * features/keys: a backup is also tried with the anchors this browser remembers, and one that
   * opens with a root the server did not show is refused (ANWH: the root withheld). Off: with
   * the roots shown alone, so it fails as a wrong code does.
   */
  "backup-anchor-shown",
  /** lib/trust.ts: once the instance's legacy rule is pinned, a version 1 key without an administrator's certificate is untrusted_key. Off: pinned on first use, as before the rule. */
  "legacy-uncertified",
  /**
   * conversations/conversation-log.ts: a signed conversation's answer (log, records, copy) is
   * verified as the conversation asked for, whose container every log entry names. Off: as
   * whichever conversation the answer's log names, so another conversation's answer is taken.
   */
  "container-binding",
  /**
   * conversations/conversation-log.ts and groups/keys/group-ring.ts: a conversation's or a group's
   * log must hold the head this client remembers (log_fork). Off: no head is compared; a fork or a
   * rollback is taken.
   */
  "log-head",
  /**
   * conversations: who takes part in a signed conversation is its log's (each record verified
   * against the log, ghost_participant; the people shown are the log's members). Off: the
   * server's word, as protocol v1 took it: records as served, the people it lists.
   */
  "members-from-log",
  /**
   * conversations/load-conversation.ts: a version 1 conversation is moved to a signed log only
   * with the people its member confirmed. Off: at once with the server's list, as before.
   */
  "migration-people",
  /** conversations/distribution.ts: one's copy must be sealed and signed by a participant, for the committed key (copy_invalid). Off: any copy that opens, as protocol v1 took it. */
  "copy-signature",
  /** conversations/message-crypto.ts: a member's message must carry its sender's signature. Off: a message that opens is the named sender's, as protocol v1 showed it. */
  "message-signature",
  /**
   * conversations/message-crypto.ts: the log head a member's signed message names must be in this
   * client's verified log, fetched again for a head beyond it (log_fork). Off: heads are not
   * compared, so a fork shown to the sender and the reader goes unnoticed.
   */
  "message-log-head",
  /**
   * conversations/membership-fingerprint.tsx: the membership fingerprint is of the head of the
   * client's verified log. Off: of its first entry, which both sides of a fork share, so members
   * who compare see the same value.
   */
  "fingerprint-of-head",
  /**
   * groups/records/page-keys.ts: a restricted page's link between generations is opened only if
   * its digest is the one the generation's signed copy (or the verified link after it) names
   * (bad_chain). Off: whatever link the server serves for the generation.
   */
  "page-key-link",
  /** lib/guest.ts: a pickup's Argon2id parameters must meet the floor. Off: whatever the lookup answers. */
  "pickup-floor",
  /** lib/build-settings.ts: secure-code settings come from the build. Off: from the key-state answer, as protocol v1 took them. */
  "securecode-from-build",
] as const;

export type TestCheck = (typeof TEST_CHECK_NAMES)[number];

/** Where a test build reads the checks that are off: localStorage, the names joined by commas. */
export const TEST_CHECKS_STORAGE_KEY = "sealwork-test-checks-off";

/** The flag web/src/lib/build-settings.ts reads, as Vite's `define` takes it. */
export function testCheckDefines(mode: string): Record<string, string> {
  return { "import.meta.env.SEALWORK_TEST_CHECKS": JSON.stringify(mode === TEST_CHECKS_MODE ? "on" : "") };
}
