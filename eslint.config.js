import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import globals from "globals";
import tseslint from "typescript-eslint";

const WEB = "./web/src";
const FEATURES = readdirSync(new URL("web/src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The SPA's import zones (bulletproof-react's): app → features → lib, one way; a feature reaches
 * another feature only through that feature's index.ts. One zone per feature, from the folders
 * that exist, so a new feature is covered by being created.
 */
const webZones = [
  { target: `${WEB}/lib`, from: [`${WEB}/features`, `${WEB}/app`], message: "lib is shared by everything: it imports neither features nor app." },
  { target: `${WEB}/features`, from: `${WEB}/app`, message: "Features do not import the app; the app composes them." },
  ...FEATURES.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`, ...FEATURES.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: "Another feature is reached only through its index.ts.",
  })),
];

/** Import cycles are refused in the SPA, the packages and the functions. */
const CYCLE_CHECKED = ["web/**/*.{ts,tsx}", "packages/*/src/**/*.ts", "functions/**/*.ts"];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", ".sst/**", "cdk.out/**", ".data/**", "test-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "no-empty": ["error", { allowEmptyCatch: false }],
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: [...new Set([...CYCLE_CHECKED, "web/src/**/*.{ts,tsx}"])],
    plugins: { "import-x": importX },
    settings: {
      // Dependencies are parsed as TypeScript, so no-cycle follows .ts and .tsx files.
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".mjs", ".json"], conditionNames: ["import", "default"] })],
    },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    rules: { "import-x/no-restricted-paths": ["error", { zones: webZones }] },
  },
  {
    files: CYCLE_CHECKED,
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
);
