import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { aliceAndBob, conversationWith, groupKeyReady, groupWithAdminBrowser, rotate, send, signInAs } from "../malicious/scenes";
import { type Member, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { conversationPanel, messageList } from "./conversation-helpers";
import { gotoApp } from "./helpers";

/**
 * A participant whose key moved (renewed, or reset by an administrator after they lost it:
 * docs/protocol.md §14.3) holds no key the conversation's copies were sealed for. Their screen says
 * the conversation waits for its key (not an attack: `key_moved`), and the next time an admin of
 * the conversation opens it, their browser renews the key for everyone's current keys; the epoch
 * chain gives the moved member the history again. In a group, the server names the member whose key
 * moved (`moved_keys`) and an administrator's idle browser starts the group key's next epoch.
 */
describe("conversations and groups after a member's key moved", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh browser context (nothing looked up or cached yet) signed in as `member`. */
  async function visit(member: Member): Promise<Page> {
    const { page } = await newVisitor(browser);
    await signInAs(page, member);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    return page;
  }
  const verified = (page: Page, text: string) => messageList(page).locator('[data-message-verified="true"]').getByText(text, { exact: true });

  it("waits for its key until an admin opens it, then reads the history and writes again", { timeout: 300_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const a = await visit(alice);
    const id = await conversationWith(a, bob.email, "Before Bob's new key");
    await send(a, "Written before");

    // Bob's key moves (a new identity key of his chain); his browser recovers the new one.
    await rotate(bob);
    const b = await visit(bob);
    await gotoApp(b, `/conversation/${id}`, TEST_CODE);
    const waiting = b.locator('[role="alert"][data-trust-warning="key_moved"]');
    await waiting.waitFor({ timeout: 30_000 });
    expect(await waiting.textContent()).toContain("This conversation waits for its key");
    expect(await b.locator('[data-trust-warning]:not([data-trust-warning="key_moved"])').count()).toBe(0);
    const before = await http<{ epoch: number }>("GET", `/api/conversations/${id}/log`, { token: alice.session.api_token });
    expect(before.body.epoch).toBe(0);

    // Alice, the conversation's admin, opens it in a fresh browser: it renews the key.
    const a2 = await visit(alice);
    await gotoApp(a2, `/conversation/${id}`, TEST_CODE);
    await conversationPanel(a2).locator('[data-key-epoch="1"]').waitFor({ timeout: 30_000 });
    const after = await http<{ entries: { record: { action: string } }[]; epoch: number }>("GET", `/api/conversations/${id}/log`, { token: alice.session.api_token });
    expect(after.body.entries.map((e) => e.record.action)).toEqual(["create", "add", "rekey"]);

    // Bob reads what was written before, through the chain, and writes again; Alice reads it.
    await gotoApp(b, `/conversation/${id}`, TEST_CODE);
    await verified(b, "Written before").waitFor({ timeout: 30_000 });
    expect(await b.locator("[data-trust-warning]").count()).toBe(0);
    await send(b, "Back with my new key");
    await gotoApp(a2, `/conversation/${id}`, TEST_CODE);
    await verified(a2, "Back with my new key").waitFor({ timeout: 30_000 });

    // Opening it again changes nothing more: everyone's copy is for their current key.
    const a3 = await visit(alice);
    await gotoApp(a3, `/conversation/${id}`, TEST_CODE);
    await verified(a3, "Back with my new key").waitFor({ timeout: 30_000 });
    expect((await http<{ epoch: number }>("GET", `/api/conversations/${id}/log`, { token: alice.session.api_token })).body.epoch).toBe(1);
    for (const page of [a, a2, a3, b]) await page.context().close();
  });

  it("a group: an administrator's idle browser renews the group key for the member whose key moved", { timeout: 300_000 }, async () => {
    const root = await rootAdmin();
    const { bob } = await aliceAndBob();
    // A group the setup administrator made; their browser makes its keys (Bob's wrap among them).
    const { group: g, admin: s } = await groupWithAdminBrowser(browser, bob);
    const b = await visit(bob);
    await gotoApp(b, `/group/${g}/page/members`, TEST_CODE);
    await groupKeyReady(b, 0).waitFor({ timeout: 60_000 });

    await rotate(bob);
    // Nobody clicks: the administrator's browser, idling on the group, starts epoch 1 for everyone's current keys.
    const status = async () => (await http<{ epoch: number; moved_keys: number[]; missing_wraps: number[] }>("GET", `/api/groups/${g}/wraps/status`, { token: root.session.api_token })).body;
    await expect.poll(status, { timeout: 90_000, interval: 2_000 }).toMatchObject({ epoch: 1, moved_keys: [], missing_wraps: [] });
    // The administrator's page shows the epoch its browser started, without a reload.
    await groupKeyReady(s, 1).waitFor({ timeout: 15_000 });
    const b2 = await visit(bob);
    await gotoApp(b2, `/group/${g}/page/members`, TEST_CODE);
    await groupKeyReady(b2, 1).waitFor({ timeout: 60_000 });
    for (const page of [s, b, b2]) await page.context().close();
  });
});
