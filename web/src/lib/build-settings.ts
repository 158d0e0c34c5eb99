import { TEST_CHECKS_STORAGE_KEY, type TestCheck } from "../../build-settings";

/**
 * What the tenant's build says about secure codes (web/build-settings.ts): read from the bundle,
 * never from an API answer, so a server cannot switch encryption off or choose the code keys are
 * wrapped under (docs/protocol.md §9, docs/deploy.md "Tenant settings").
 */
export interface SecureCodeSetting {
  /** Secure codes are off: every key is wrapped under `defaultCode`, nobody is asked. */
  disabled: boolean;
  defaultCode: string | null;
}

export function secureCodeSetting(env: { VITE_DISABLE_SECURECODE?: string; VITE_DEFAULT_SECURECODE?: string } = import.meta.env): SecureCodeSetting {
  // Test build only (test/malicious): the key-state answer decides, as in protocol v1.
  if (TEST_CHECKS && checkOff("securecode-from-build")) return secureCodeAnswer() ?? { disabled: false, defaultCode: null };
  const defaultCode = env.VITE_DEFAULT_SECURECODE || null;
  // Off only with a code to use instead (the build refuses one without the other).
  const disabled = env.VITE_DISABLE_SECURECODE === "true" && defaultCode !== null;
  return { disabled, defaultCode: disabled ? defaultCode : null };
}

// --- the malicious-server suite's switches (its test build only) ---------------------------

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

/** Whether the test switched `check` off (test build only; call it behind TEST_CHECKS). */
export function checkOff(check: TestCheck): boolean {
  if (!TEST_CHECKS) return false;
  const off = (localStorage.getItem(TEST_CHECKS_STORAGE_KEY) ?? "").split(",").includes(check);
  if (off) console.warn(`[test build] the check "${check}" is off`);
  return off;
}

// Secure-code settings as protocol v1 read them ("securecode-from-build" off).
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
