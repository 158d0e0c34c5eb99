import { afterAll, inject } from "vitest";
import { trustedTypesViolations } from "./browser";
// Tests read every domain's entities (db().entities.x) and codes: register them all, as the local runtime does.
import "@sealwork/core/domains";

// Lets tests use the domain layer (e.g. to create an invited account) against the same table.
Object.assign(process.env, inject("runtime").env, { POWERTOOLS_LOG_LEVEL: "WARN" });

// Every browser flow runs under the site's CSP, Trusted Types required: a violation anywhere in a
// test file fails it (test/support/browser.ts records them).
afterAll(() => {
  const found = trustedTypesViolations.splice(0);
  if (found.length > 0) throw new Error(`Trusted Types violations:\n${found.join("\n")}`);
});
