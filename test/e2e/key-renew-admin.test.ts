import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { db } from "@sealwork/core/db/service";
import { aliceAndBob, conversationWith, send, signInAs } from "../malicious/scenes";
import { invitedMember, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { conversationPanel, messageList } from "./conversation-helpers";
import { KEY_WORK_TIMEOUT, gotoApp } from "./helpers";

/**
 * "Renew my key" by the only admin of a conversation (docs/protocol.md §14.3, "Content sealed for
 * the lost key"): nobody else may renew its key, so the renewing browser does it while it still
 * holds the old key. Alice starts a conversation with Bob (she is its only admin), renews her
 * key, and reads and writes in it with the new one at once; Bob reads her. The same for a group
 * whose only administrator renews.
 */
const NEW_CODE = "alices-renewed-code-7";

describe("the only admin of a conversation or group renews their key", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const verifiedMessage = (page: Page, text: string) => messageList(page).locator('[data-message-verified="true"]').getByText(text, { exact: true });
  const logOf = async (id: number, token: string) => (await http<{ epoch: number; entries: { record: { action: string } }[] }>("GET", `/api/conversations/${id}/log`, { token })).body;

  /** Settings → Advanced, "Renew my key…", the new code; answers once the modal closed (the containers renewed). */
  async function renew(page: Page): Promise<void> {
    await gotoApp(page, "/settings/", TEST_CODE);
    await page.getByRole("button", { name: "Renew my key…" }).click();
    const dialog = page.getByRole("dialog", { name: "Renew my key" });
    await dialog.getByText("Conversations that you administer", { exact: false }).waitFor();
    await dialog.getByLabel("Secure code", { exact: true }).fill(NEW_CODE);
    await dialog.getByLabel("Repeat secure code").fill(NEW_CODE);
    await dialog.getByLabel("Repeat secure code").press("Enter");
    await dialog.waitFor({ state: "detached", timeout: KEY_WORK_TIMEOUT });
    await page.getByText("Your key was renewed.").waitFor();
  }

  it("her conversation gets the next key for her new key while she renews, and opens for her right after", { timeout: 300_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const { page: a } = await newVisitor(browser);
    await signInAs(a, alice);
    const id = await conversationWith(a, bob.email, "Alice's own");
    await send(a, "Before Alice renewed");
    expect((await logOf(id, alice.session.api_token)).epoch).toBe(0);

    await renew(a);

    // Renewed by her browser before the modal closed: the next epoch, sealed for her new key.
    const log = await logOf(id, alice.session.api_token);
    expect(log.epoch).toBe(1);
    expect(log.entries.at(-1)?.record.action).toBe("rekey");

    // Her conversation opens with the new key, the history through the epoch chain; she writes on.
    await gotoApp(a, `/conversation/${id}`, NEW_CODE);
    await verifiedMessage(a, "Before Alice renewed").waitFor({ timeout: 30_000 });
    await conversationPanel(a).locator('[data-key-epoch="1"]').waitFor({ timeout: 30_000 });
    expect(await a.locator("[data-trust-warning]").count()).toBe(0);
    await send(a, "After Alice renewed");

    const { page: b } = await newVisitor(browser);
    await signInAs(b, bob);
    await gotoApp(b, `/conversation/${id}`, TEST_CODE);
    await verifiedMessage(b, "After Alice renewed").waitFor({ timeout: 30_000 });
    await verifiedMessage(b, "Before Alice renewed").waitFor();
    for (const page of [a, b]) await page.context().close();
  });

  it("his group gets its next epoch for his new key while he renews, and its key is ready for him right after", { timeout: 300_000 }, async () => {
    const root = await rootAdmin();
    const [sam, bea] = [await invitedMember(root), await invitedMember(root)];
    const tag = Math.random().toString(36).slice(2, 7);
    // Sam makes groups (a super administrator) and picks Bea by her name.
    await db().entities.user.patch({ id: sam.session.id }).set({ superAdmin: true }).go();
    expect((await http("PATCH", `/api/users/${bea.session.id}`, { token: bea.session.api_token, body: { name: `Bea ${tag}` } })).status).toBe(200);
    const { page: s } = await newVisitor(browser);
    await signInAs(s, sam);
    await s.getByRole("button", { name: "Create" }).click();
    await s.getByRole("menuitem", { name: "New group" }).click();
    await s.getByLabel("Name").fill(`Sam's ${tag}`);
    await s.getByRole("textbox", { name: "Search people" }).fill(`Bea ${tag}`);
    await s.getByRole("listitem").filter({ hasText: `Bea ${tag}` }).first().click();
    await s.getByRole("region", { name: "Initial members" }).getByText(`Bea ${tag}`).waitFor();
    await s.getByRole("button", { name: "Create group" }).click();
    await s.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
    const g = Number(/\/group\/(\d+)\//.exec(s.url())![1]);
    const keyReady = (epoch: number) => s.locator(`[data-group-key="ready"][data-group-key-epoch="${epoch}"]`);
    await keyReady(0).waitFor({ timeout: 30_000 });

    await renew(s);
    // (A key-moved job that ran only after this renewal marks him again, and his new browser's keeper then starts one epoch more.)
    const status = (await http<{ epoch: number; missing_wraps: number[] }>("GET", `/api/groups/${g}/wraps/status`, { token: sam.session.api_token })).body;
    expect(status.epoch).toBeGreaterThanOrEqual(1);
    expect(status.missing_wraps).toEqual([]);
    await gotoApp(s, `/group/${g}/page/members`, NEW_CODE);
    await s.locator('[data-group-key="ready"]:not([data-group-key-epoch="0"])').waitFor({ timeout: 30_000 });
    await s.context().close();
  });
});
