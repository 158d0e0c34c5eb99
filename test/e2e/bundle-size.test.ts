import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INITIAL_JS_BUDGET_KB, initialJs } from "../bench/bundle-size";
import { ROOT } from "../support/runtime";

/**
 * The SPA the browser tests use (web/dist, built by `npm test` or `npm run build:web`): its initial
 * JavaScript stays within the budget of issue 9 as pages are added. Sizes, not timings: a build
 * gives the same bytes on any machine.
 */
describe("the SPA's initial JavaScript", () => {
  const dist = join(ROOT, "web/dist");

  it(`is at most ${INITIAL_JS_BUDGET_KB} kB gzipped, with every route in a lazy chunk`, () => {
    expect(existsSync(join(dist, ".vite/manifest.json")), "build the SPA first (npm run build:web)").toBe(true);
    const size = initialJs(dist);
    expect(size.gzip_kb).toBeLessThanOrEqual(INITIAL_JS_BUDGET_KB);
    // No page of a feature is in the first load: each comes with its route.
    expect(size.chunks.map((c) => c.name).filter((name) => name.endsWith("-page"))).toEqual([]);
    expect(size.all_chunks).toBeGreaterThan(size.chunks.length);
  });
});
