import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser } from "../support/browser";
import { aliceAndBob, conversationWith, logout, signInAs, startConversationWith, trustWarning, visitAs } from "../malicious/scenes";
import { errorDialogText } from "./helpers";

/**
 * The pin book older than one this browser saw (docs/protocol.md §14.10, lib/pins.ts): Alice's
 * book goes back on the server to what it was before she met Bob. Her browser, which saw the newer
 * one, refuses it with the warning above every page and encrypts nothing, until she takes the
 * server's copy on purpose (a server restored from a backup); then she meets Bob's key anew.
 */
const ROLLED_BACK = "Warning: the server answered an older copy of your saved contact keys than this browser has seen before.";

type Book = { data: string | null; rev: number };

describe("a pin book older than one this browser saw", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("is refused with a warning, nothing is encrypted, and the user may take the server's copy after all", { timeout: 300_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const token = alice.session.api_token;
    const book = async () => (await http<Book>("GET", "/api/identities/pins", { token })).body;
    const page = await visitAs(browser, alice);
    await expect.poll(async () => (await book()).data, { timeout: 30_000 }).not.toBeNull();
    const before = await book();
    await conversationWith(page, bob.email, "First contact");
    await expect.poll(async () => (await book()).rev, { timeout: 30_000 }).toBeGreaterThan(before.rev);

    // Signed out first: a save still to come from the page (the new conversation's log head, after
    // Bob's pin) would otherwise meet the older book there and be refused in a dialog (once in CI).
    await logout(page);
    // The older book goes back on the server (as a restore, or a server replaying it, would put it).
    const now = await book();
    expect((await http("PUT", "/api/identities/pins", { token, body: { data: before.data, rev: now.rev } })).status).toBe(200);
    await signInAs(page, alice);
    const warning = trustWarning(page, "pins_rolled_back");
    await expect.poll(() => warning.textContent(), { timeout: 30_000 }).toContain(ROLLED_BACK);
    await expect.poll(() => warning.textContent()).toContain("Ask your administrator whether the server was restored from a backup.");

    // Nothing is encrypted for anyone meanwhile: starting a conversation says why.
    const creations: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/conversations") creations.push(request.url());
    });
    await startConversationWith(page, bob.email, "While refused");
    expect(await errorDialogText(page)).toContain(ROLLED_BACK);
    await page.keyboard.press("Escape");
    expect(creations).toEqual([]);

    // Cancel keeps the warning; "Yes, use it" takes the server's copy: the warning goes, and Bob's key is met anew.
    await warning.getByRole("button", { name: "Use the server's copy" }).click();
    await warning.getByRole("button", { name: "Cancel" }).click();
    await warning.getByRole("button", { name: "Use the server's copy" }).click();
    await warning.getByRole("button", { name: "Yes, use it" }).click();
    await warning.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Start conversation" }).click();
    await page.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
    expect(creations).toHaveLength(1);
    await page.context().close();
  });
});
