import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/**
 * The automated accessibility check of the browser tests: axe-core, evaluated in the page through
 * the DevTools protocol (the app's CSP rightly refuses an injected inline script, and the check
 * must run under the real CSP), run over the whole document as it stands. Violations of impact "serious" or "critical"
 * fail the test with what axe found and where; "moderate" and "minor" are left to review.
 */
const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let axeSource: string | undefined;
const FAILING = new Set(["serious", "critical"]);

interface AxeNode {
  target: string[];
  html: string;
  /** The other elements a check names (the child a role may not hold, the background). */
  related: string[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** What still runs: each animation's name (or the transition's property) and the element's classes. */
const RUNNING = `document.getAnimations().filter((a) => a.playState === "running").map((a) => (a.animationName || a.transitionProperty || "?") + " on " + (a.effect?.target?.className || a.effect?.target?.tagName || "?"))`;

/**
 * Waits until no CSS transition or animation runs (Mantine fades modals and menus in; a loader
 * spins while a page fetches or decrypts, which takes a while on a busy machine).
 */
async function settled(page: Page): Promise<void> {
  // Polled with page.evaluate: waitForFunction would eval the predicate in the page, which the CSP refuses.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const running = await page.evaluate<string[]>(RUNNING);
    if (running.length === 0) return;
    if (Date.now() > deadline) throw new Error(`animations still running after 20 s: ${running.slice(0, 5).join("; ")}`);
    await page.waitForTimeout(50);
  }
}

/** Runs in the page (a string: this project's TypeScript has no DOM library). */
const RUN_AXE = `(async () => {
  const result = await window.axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, related: [...n.any, ...n.all, ...n.none].flatMap((c) => c.relatedNodes.map((r) => r.html)).slice(0, 3), failureSummary: n.failureSummary })) }));
})()`;

/** Runs axe over the page and fails on serious or critical violations; `screen` names it in the message. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await settled(page);
  // Evaluated through the DevTools protocol, not added as a script tag: the site's CSP refuses
  // inline script, and a tag's text would be a Trusted Types sink.
  if (!(await page.evaluate<boolean>('"axe" in window'))) await page.evaluate((axeSource ??= readFileSync(AXE_SCRIPT, "utf8")));
  const violations = await page.evaluate<AxeViolation[]>(RUN_AXE);
  const failing = violations.filter((v) => v.impact !== null && FAILING.has(v.impact));
  if (failing.length === 0) return;
  const lines = failing.flatMap((v) => [
    `${v.impact} ${v.id}: ${v.help}`,
    ...v.nodes.slice(0, 5).map((n) =>
      [`  at ${n.target.join(" ")}: ${n.html.slice(0, 200)}`, ...n.related.map((html) => `    related: ${html.slice(0, 200)}`), `    ${(n.failureSummary ?? "").replace(/\n/g, "\n    ")}`].join("\n"),
    ),
  ]);
  throw new Error(`Accessibility violations on ${screen}:\n${lines.join("\n")}`);
}
