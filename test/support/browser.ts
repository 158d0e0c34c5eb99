import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { baseUrl } from "./api";

const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(EXECUTABLE)) throw new Error(`Chromium is missing at ${EXECUTABLE}: run npm test, which installs it, or set CHROMIUM_PATH.`);
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * Trusted Types violations any page of a watched context reported (the site's CSP requires them;
 * issue 11, item 8). test/support/setup-env.ts fails a test file that leaves any here, so every
 * browser flow is also a check that the SPA works under the policy.
 */
export const trustedTypesViolations: string[] = [];

const TRUSTED_TYPES_MESSAGE = /Trusted ?Type|TrustedHTML|TrustedScript|require-trusted-types-for/i;

/** Records the context's Trusted Types violations (console reports and uncaught errors). */
export function watchTrustedTypes(context: BrowserContext): void {
  context.on("console", (message) => {
    if (TRUSTED_TYPES_MESSAGE.test(message.text())) trustedTypesViolations.push(`${message.page()?.url() ?? "?"}: ${message.text()}`);
  });
  context.on("weberror", (error) => {
    if (TRUSTED_TYPES_MESSAGE.test(String(error.error()))) trustedTypesViolations.push(`${error.page()?.url() ?? "?"}: ${String(error.error())}`);
  });
}

/** A fresh context (no storage) with the app's base URL (or `baseURL`: a proxy in front of it), as a new visitor would come. */
export async function newVisitor(browser: Browser, viewport = { width: 1280, height: 800 }, baseURL = baseUrl()): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport, locale: "en-GB" });
  watchTrustedTypes(context);
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}
