import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser } from "../support/browser";
import { rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { adminBrowserOn, aliceAndBob, conversationWith, groupKeyReady, groupWithAdminBrowser, rotate, send, trustWarning, verifiedMessage, visitAs } from "../malicious/scenes";
import { conversationPanel } from "./conversation-helpers";
import { gotoApp } from "./helpers";

/**
 * A page that waits for its key because the member's key moved (docs/protocol.md §14.3, "Keys that
 * moved") looks again by itself, with the message poll's back-off (the conversation's log epoch,
 * the group's wraps), and opens once an admin's browser has renewed the key: Bob's page is not
 * touched (no click, no navigation, no reload: a mark left in the page's memory is still there).
 */
describe("a page waiting for its key after the member's key moved", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Leaves a mark in the page's memory: a reload or a navigation of the document would lose it. */
  const mark = (page: Page) => page.evaluate("window.keyWaitMark = true");
  const marked = (page: Page) => page.evaluate<boolean>("window.keyWaitMark === true");

  it("a conversation opens by itself once an admin opened it and renewed its key", { timeout: 300_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const a = await visitAs(browser, alice);
    const id = await conversationWith(a, bob.email, "Waiting for Bob's key");
    await send(a, "Written before");
    await a.context().close();

    // Bob's key moves; his browser, signed in afterwards, holds the new one.
    await rotate(bob);
    const b = await visitAs(browser, bob);
    await gotoApp(b, `/conversation/${id}`, TEST_CODE);
    await trustWarning(b, "key_moved").waitFor({ timeout: 30_000 });
    expect(await trustWarning(b, "key_moved").textContent()).toContain("This conversation waits for its key");
    await mark(b);
    const url = b.url();

    // Alice, the conversation's admin, opens it: her browser renews the key.
    const a2 = await visitAs(browser, alice);
    await gotoApp(a2, `/conversation/${id}`, TEST_CODE);
    await conversationPanel(a2).locator('[data-key-epoch="1"]').waitFor({ timeout: 30_000 });

    // Bob's page, untouched, reads the history through the chain (the back-off waits 5 to 20 s).
    await verifiedMessage(b, "Written before").waitFor({ timeout: 45_000 });
    expect(await b.locator("[data-trust-warning]").count()).toBe(0);
    expect(await marked(b)).toBe(true);
    expect(b.url()).toBe(url);
    for (const page of [a2, b]) await page.context().close();
  });

  it("a group opens by itself once an administrator's idle browser renewed its key", { timeout: 300_000 }, async () => {
    const root = await rootAdmin();
    const { bob } = await aliceAndBob();
    const { group: g, admin: s } = await groupWithAdminBrowser(browser, bob);
    const before = await visitAs(browser, bob);
    await gotoApp(before, `/group/${g}/page/members`, TEST_CODE);
    await groupKeyReady(before, 0).waitFor({ timeout: 60_000 });
    // No administrator's browser is open while Bob's key moves: nobody renews the group key yet.
    for (const page of [s, before]) await page.context().close();

    await rotate(bob);
    const b = await visitAs(browser, bob);
    await gotoApp(b, `/group/${g}/page/members`, TEST_CODE);
    await trustWarning(b, "key_moved").waitFor({ timeout: 60_000 });
    expect(await trustWarning(b, "key_moved").textContent()).toContain("This group waits for its key");
    await mark(b);
    const url = b.url();

    // The administrator signs in and idles on the group: their browser starts epoch 1 for everyone's current keys.
    const s2 = await adminBrowserOn(browser, g);
    const status = async () => (await http<{ epoch: number; moved_keys: number[]; missing_wraps: number[] }>("GET", `/api/groups/${g}/wraps/status`, { token: root.session.api_token })).body;
    await expect.poll(status, { timeout: 90_000, interval: 2_000 }).toMatchObject({ epoch: 1, moved_keys: [], missing_wraps: [] });

    // Bob's page, untouched, shows the group's key of the new epoch.
    await groupKeyReady(b, 1).waitFor({ timeout: 45_000 });
    expect(await b.locator("[data-trust-warning]").count()).toBe(0);
    expect(await marked(b)).toBe(true);
    expect(b.url()).toBe(url);
    for (const page of [s2, b]) await page.context().close();
  });
});
