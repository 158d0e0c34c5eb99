/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API; empty or unset means the same origin as the app. */
  readonly VITE_API_URL?: string;
  /** "true" where the tenant's build switched secure codes off (web/build-settings.ts). */
  readonly VITE_DISABLE_SECURECODE?: string;
  /** The code every key is wrapped under where secure codes are off. */
  readonly VITE_DEFAULT_SECURECODE?: string;
  /** "on" in the malicious-server suite's build only (web/build-settings.ts, lib/build-settings.ts). */
  readonly SEALWORK_TEST_CHECKS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
