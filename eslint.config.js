import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

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
    // One-way imports in the SPA: app → features → lib.
    files: ["web/src/lib/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/features/**", "**/app/**"] }] },
  },
  {
    files: ["web/src/features/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/app/**"] }] },
  },
);
