import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_CHECKS_MODE, TEST_CHECKS_STORAGE_KEY, TEST_CHECK_NAMES, type TestCheck } from "../../web/build-settings";
import { baseUrl } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { type MaliciousProxy, startProxy } from "../support/malicious-proxy";
import { ROOT } from "../support/runtime";
import { buildWeb } from "../support/web-build";

/**
 * How each attack of the malicious-server suite runs (test/malicious/malicious-server.test.ts):
 * twice, in Chromium, behind a proxy that lies (test/support/malicious-proxy.ts).
 *
 * - **check on**: the SPA as shipped (the runtime's production build, web/dist), with the test
 *   switch set all the same (a production build has none: setting it must change nothing). The
 *   client must refuse, with a clear message, and send nothing it should not.
 * - **check off**: the test build (web/build-settings.ts, TEST_CHECKS_MODE) with that one check
 *   switched off. The same attack must work; otherwise the first run proves nothing.
 */

export interface Run {
  /** true: the production build, which must refuse; false: the test build with the check off, where the attack must work. */
  checkOn: boolean;
  /** The lying server of this run, in front of the shared runtime. */
  proxy: MaliciousProxy;
  /** A fresh browser context through the proxy, with the check switched off in localStorage, on its first page. */
  visitor(): Promise<Page>;
  /** An address of the runtime's (a link from a mail) on the proxy's origin. */
  viaProxy(url: string): string;
}

export interface AttackCase<T> {
  /** The client check that stops the attack: switched off in the second run (web/build-settings.ts, TEST_CHECK_NAMES). */
  check: TestCheck;
  /** Sets the scene and mounts the attack through `run.proxy`; answers what the assertions need. */
  mount(run: Run): Promise<T>;
  /** The client as shipped: refused with a clear message, nothing sent, sealed or computed that should not be. */
  refused(scene: T, run: Run): Promise<void>;
  /** The check off: the attack works. */
  works(scene: T, run: Run): Promise<void>;
  timeout?: number;
}

export interface MaliciousSuite {
  /** One attack: a test with the check on (refused) and one with it off (works). */
  attack<T>(name: string, attackCase: AttackCase<T>): void;
  /** One test of the production build alone, for a refusal no switch can turn into an attack that works (say why). */
  refusal(name: string, test: (run: Run) => Promise<void>, timeout?: number): void;
}

/** Starts the browser, the test build and two proxies for a test file, and answers how to add attacks to it. */
export function maliciousSuite(): MaliciousSuite {
  let browser: Browser;
  let testBuild: string;
  let shipped: MaliciousProxy;
  let switched: MaliciousProxy;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    testBuild = await buildWeb({}, { mode: TEST_CHECKS_MODE });
    [browser, shipped, switched] = await Promise.all([launchBrowser(), startProxy(baseUrl()), startProxy(baseUrl(), { spaDir: testBuild })]);
  }, 180_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    shipped.reset();
    switched.reset();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([shipped?.close(), switched?.close()]);
    if (testBuild) rmSync(testBuild, { recursive: true, force: true });
  });

  function runOf(checkOn: boolean, check: TestCheck | null): Run {
    const proxy = checkOn ? shipped : switched;
    return {
      checkOn,
      proxy,
      async visitor() {
        const { context, page } = await newVisitor(browser, undefined, proxy.url);
        contexts.push(context);
        if (check) await context.addInitScript({ content: `localStorage.setItem(${JSON.stringify(TEST_CHECKS_STORAGE_KEY)}, ${JSON.stringify(check)});` });
        return page;
      },
      viaProxy: (url) => proxy.url + url.slice(new URL(url).origin.length),
    };
  }

  it("the switches exist in the test build only: the production bundle holds none of their names", () => {
    const scripts = (dir: string) => readdirSync(join(dir, "assets")).filter((file) => file.endsWith(".js"));
    const text = (dir: string) => scripts(dir).map((file) => readFileSync(join(dir, "assets", file), "utf8")).join("\n");
    const production = text(join(ROOT, "web/dist"));
    const test = text(testBuild);
    for (const name of [...TEST_CHECK_NAMES, TEST_CHECKS_STORAGE_KEY]) {
      expect(test, name).toContain(name);
      expect(production, name).not.toContain(name);
    }
  });

  return {
    attack(name, attackCase) {
      const timeout = attackCase.timeout ?? 180_000;
      describe(name, () => {
        it(`is refused by the client as shipped (check "${attackCase.check}" on)`, { timeout }, async () => {
          const run = runOf(true, attackCase.check);
          await attackCase.refused(await attackCase.mount(run), run);
        });
        it(`works with the check "${attackCase.check}" off (test build)`, { timeout }, async () => {
          const run = runOf(false, attackCase.check);
          await attackCase.works(await attackCase.mount(run), run);
        });
      });
    },
    refusal(name, test, timeout = 180_000) {
      it(name, { timeout }, () => test(runOf(true, null)));
    },
  };
}
