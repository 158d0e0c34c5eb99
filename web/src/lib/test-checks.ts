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
import { TEST_CHECKS_STORAGE_KEY, type TestCheck } from "../../build-settings";

/**
 * Switches that turn one client check off, for the malicious-server suite alone (test/malicious,
 * docs/protocol.md §14.11): each attack runs once against the check, which must refuse it, and
 * once with the check off, where the attack must work, so that the suite can fail.
 *
 * They exist only in the suite's build (web/build-settings.ts, TEST_CHECKS_MODE). In every other
 * build TEST_CHECKS is the literal false, and the minifier drops `if (TEST_CHECKS && checkOff(…))`
 * together with what it guards; the suite checks that the production bundle holds none of the
 * names (web/build-settings.ts, TEST_CHECK_NAMES, which says what each one switches off). So
 * always guard with `TEST_CHECKS &&` first: `checkOff` alone would leave the weakened code in the
 * bundle, unreachable but there.
 *
 * A test turns checks off in localStorage (TEST_CHECKS_STORAGE_KEY = "name,name").
 */
export const TEST_CHECKS: boolean = import.meta.env.SEALWORK_TEST_CHECKS === "on";

export type Check = TestCheck;

/** Whether the test switched `check` off (test build only; call it behind TEST_CHECKS). */
export function checkOff(check: Check): boolean {
  if (!TEST_CHECKS) return false;
  const off = (localStorage.getItem(TEST_CHECKS_STORAGE_KEY) ?? "").split(",").includes(check);
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
