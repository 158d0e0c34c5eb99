import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { aliceAndBob, conversationWith, send, signInAs } from "../malicious/scenes";
import { TEST_CODE } from "../support/keys";
import { conversationPanel, messageList } from "./conversation-helpers";
import { KEY_WORK_TIMEOUT, gotoApp } from "./helpers";

/**
 * "Renew my key" by the only admin of a conversation (docs/protocol.md §14.3, "Content sealed for
 * the lost key"): nobody else may renew its key, so the renewing browser does it while it still
 * holds the old key. Alice starts a conversation with Bob (she is its only admin), renews her
 * key, and reads and writes in it with the new one at once; Bob reads her.
 */
const NEW_CODE = "alices-renewed-code-7";

describe("the only admin of a conversation renews their key", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const verifiedMessage = (page: Page, text: string) => messageList(page).locator('[data-message-verified="true"]').getByText(text, { exact: true });
  const logOf = async (id: number, token: string) => (await http<{ epoch: number; entries: { record: { action: string } }[] }>("GET", `/api/conversations/${id}/log`, { token })).body;

  it("her conversation gets the next key for her new key while she renews, and opens for her right after", { timeout: 300_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const { page: a } = await newVisitor(browser);
    await signInAs(a, alice);
    const id = await conversationWith(a, bob.email, "Alice's own");
    await send(a, "Before Alice renewed");
    expect((await logOf(id, alice.session.api_token)).epoch).toBe(0);

    await gotoApp(a, "/settings/", TEST_CODE);
    await a.getByRole("button", { name: "Renew my key…" }).click();
    const dialog = a.getByRole("dialog", { name: "Renew my key" });
    await dialog.getByText("Conversations and groups that you administer", { exact: false }).waitFor();
    await dialog.getByLabel("Secure code", { exact: true }).fill(NEW_CODE);
    await dialog.getByLabel("Repeat secure code").fill(NEW_CODE);
    await dialog.getByLabel("Repeat secure code").press("Enter");
    await dialog.waitFor({ state: "detached", timeout: KEY_WORK_TIMEOUT });
    await a.getByText("Your key was renewed.").waitFor();

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
});
