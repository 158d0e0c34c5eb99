/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API; empty or unset means the same origin as the app. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
