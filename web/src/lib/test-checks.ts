import {
  type Key,
  LEGACY_CONVERSATION_KEY_CONTEXT,
  LEGACY_CONVERSATION_TITLE_AAD,
  encrypt,
  exportSymmetricKey,
  importEncryptionPublicKey,
  sealFor,
  serializeEnvelope,
  utf8Encode,
} from "@sealwork/crypto";

/**
 * Switches that turn one client check off, for the malicious-server suite alone (test/malicious,
 * docs/protocol.md §14.11): each attack runs once against the check, which must refuse it, and
 * once with the check off, where the attack must work, so that the suite can fail.
 *
 * They exist only in the suite's build (web/build-settings.ts, TEST_CHECKS_MODE). In every other
 * build TEST_CHECKS is the literal false, and the minifier drops `if (TEST_CHECKS && checkOff(…))`
 * together with what it guards; the suite checks that the production bundle holds none of the
 * names below. So always guard with `TEST_CHECKS &&` first: `checkOff` alone would leave the
 * weakened code in the bundle, unreachable but there.
 *
 * A test turns checks off in localStorage: `sealwork-test-checks-off` = "name,name".
 */
export const TEST_CHECKS: boolean = import.meta.env.SEALWORK_TEST_CHECKS === "on";

export type Check =
  /** lib/trust.ts: a contact's identity chain must rest on an instance anchor this client pinned. Off: any root the chain brings will do. */
  | "identity-anchors"
  /** lib/trust.ts: a record older than the pinned one is stale_key. Off: the older record is pinned again. */
  | "pin-seq"
  /** conversations: key copies and titles are bound to the conversation id. Off: sealed under protocol v1's strings, which name none. */
  | "container-binding"
  /** lib/guest.ts: a pickup's Argon2id parameters must meet the floor. Off: whatever the lookup answers. */
  | "pickup-floor"
  /** lib/build-settings.ts: secure-code settings come from the build. Off: from the key-state answer, as protocol v1 took them. */
  | "securecode-from-build";

const STORAGE_KEY = "sealwork-test-checks-off";

/** Whether the test switched `check` off (test build only; call it behind TEST_CHECKS). */
export function checkOff(check: Check): boolean {
  if (!TEST_CHECKS) return false;
  const off = (localStorage.getItem(STORAGE_KEY) ?? "").split(",").includes(check);
  if (off) console.warn(`[test build] the check "${check}" is off`);
  return off;
}

// --- what the client does with a check off ---------------------------------------------------

/** A conversation key sealed under protocol v1's context, which names no conversation ("container-binding" off). */
export async function sealUnbound(conversationKey: Key, encryptPublic: string): Promise<string> {
  const raw = await exportSymmetricKey(conversationKey);
  return serializeEnvelope(await sealFor(await importEncryptionPublicKey(encryptPublic), raw, { context: LEGACY_CONVERSATION_KEY_CONTEXT }));
}

/** A title under protocol v1's associated data, which names no conversation ("container-binding" off). */
export async function encryptUnbound(conversationKey: Key, title: string): Promise<string> {
  return serializeEnvelope(await encrypt(conversationKey, utf8Encode(title), { aad: LEGACY_CONVERSATION_TITLE_AAD }));
}

let answered: { disabled: boolean; defaultCode: string | null } | null = null;

/** Keeps what a key-state answer says about secure codes, as protocol v1 read it ("securecode-from-build" off). */
export function rememberSecureCodeAnswer(instance: unknown): void {
  const said = (instance ?? {}) as { disableSecurecode?: unknown; defaultSecurecode?: unknown };
  const code = typeof said.defaultSecurecode === "string" && said.defaultSecurecode ? said.defaultSecurecode : null;
  answered = said.disableSecurecode === true && code ? { disabled: true, defaultCode: code } : null;
}

/** What the last key-state answer said, if it switched codes off. */
export function secureCodeAnswer(): { disabled: boolean; defaultCode: string | null } | null {
  return answered;
}
