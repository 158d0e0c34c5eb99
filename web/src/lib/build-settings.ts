import { TEST_CHECKS, checkOff, secureCodeAnswer } from "./test-checks";

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
