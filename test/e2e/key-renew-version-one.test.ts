import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser } from "../support/browser";
import { aliceAndBob, visitAs } from "../malicious/scenes";
import { startConversation } from "../support/conversations";
import { type Member, chainOf } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { expectAccessible } from "./accessibility";
import { gotoApp } from "./helpers";

/**
 * Settings → Advanced, "Renew my key" with version 1 conversations (docs/protocol.md §14.13,
 * "Version 1 conversations and a renewal"): a renewal would close them to the user (their copy is
 * for the old key, and such a conversation has no epoch to renew), so the modal names them first,
 * as links, before the secure code is asked. Alice, the author of one made as protocol v1 made them, sees it
 * by its title with "you may sign it"; Cancel leaves her key as it was; "Renew anyway" goes on to
 * the code. Bob, its other participant, is told to ask Alice. Alice opens it from the warning and
 * signs it; then Bob, whose only conversation is signed now, sees no warning.
 */
const TITLE = "Plans from the old days";

describe("renewing one's key with conversations from version 1", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const dialogOf = (page: Page) => page.getByRole("dialog", { name: "Renew my key" });
  const warningOf = (page: Page) => dialogOf(page).locator("[data-version-one-warning]");

  async function openRenewal(page: Page): Promise<void> {
    await gotoApp(page, "/settings/", TEST_CODE);
    await page.getByRole("button", { name: "Renew my key…" }).click();
    await dialogOf(page).waitFor();
  }

  async function keyOf(member: Member): Promise<{ keypair: number | undefined; records: number }> {
    const state = await http<{ keypair: { id: number } | null }>("GET", "/api/keypairs", { token: member.session.api_token });
    return { keypair: state.body.keypair?.id, records: (await chainOf(member.session.api_token, member.session.id)).chain!.records.length };
  }

  it("names the version 1 conversations before the code, links them, and cancel keeps the key", { timeout: 360_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    for (const [who, name] of [
      [alice, "Alice Oldtimer"],
      [bob, "Bob Oldtimer"],
    ] as const) {
      expect((await http("PATCH", `/api/users/${who.session.id}`, { token: who.session.api_token, body: { name } })).status).toBe(200);
    }
    // Made as protocol v1 made them: copies for Alice's and Bob's keys, no membership log.
    const { id } = await startConversation(alice.session, [bob.session], { realKeys: true, v1: true, title: TITLE });
    const before = await keyOf(alice);

    // Alice, its author: the warning names it by its title, as a link, and asks for no code yet.
    const a = await visitAs(browser, alice);
    await openRenewal(a);
    const warning = warningOf(a);
    await warning.getByText("You take part in 1 conversation from version 1", { exact: false }).waitFor({ timeout: 30_000 });
    const item = warning.locator(`[data-version-one="${id}"]`);
    await item.getByRole("link", { name: TITLE }).waitFor({ timeout: 30_000 });
    expect(await item.textContent()).toContain("(you may sign it)");
    expect(await dialogOf(a).getByLabel("Secure code", { exact: true }).count()).toBe(0);
    await expectAccessible(a, "the Renew my key modal with a version 1 conversation");

    // Cancel: the modal closes and her key is as it was.
    await warning.getByRole("button", { name: "Cancel" }).click();
    await dialogOf(a).waitFor({ state: "detached" });
    expect(await keyOf(alice)).toEqual(before);

    // "Renew anyway" goes on to the code; cancelling there changes nothing either.
    await a.getByRole("button", { name: "Renew my key…" }).click();
    await warningOf(a).getByRole("button", { name: "Renew anyway" }).click();
    await dialogOf(a).getByLabel("Secure code", { exact: true }).waitFor();
    await dialogOf(a).getByRole("button", { name: "Cancel" }).click();
    await dialogOf(a).waitFor({ state: "detached" });
    expect(await keyOf(alice)).toEqual(before);

    // Bob, who did not start it: the same conversation, and whom to ask.
    const b = await visitAs(browser, bob);
    await openRenewal(b);
    const bobsItem = warningOf(b).locator(`[data-version-one="${id}"]`);
    await bobsItem.getByRole("link", { name: TITLE }).waitFor({ timeout: 30_000 });
    expect(await bobsItem.textContent()).toContain("(ask Alice Oldtimer to sign it)");

    // Alice follows the link from the warning and signs the conversation with its people.
    await a.getByRole("button", { name: "Renew my key…" }).click();
    await warningOf(a).locator(`[data-version-one="${id}"]`).getByRole("link", { name: TITLE }).click();
    await a.waitForURL(new RegExp(`/conversation/${id}$`));
    expect(await dialogOf(a).count()).toBe(0);
    const notice = a.locator("[data-migration]");
    await notice.getByRole("button", { name: "Sign with these people" }).click({ timeout: 30_000 });
    await notice.waitFor({ state: "detached", timeout: 30_000 });

    // Now signed, it is no longer named: Bob sees no warning and is asked for the code at once.
    await warningOf(b).getByRole("button", { name: "Cancel" }).click();
    await dialogOf(b).waitFor({ state: "detached" });
    await b.getByRole("button", { name: "Renew my key…" }).click();
    await dialogOf(b).getByLabel("Secure code", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await warningOf(b).count()).toBe(0);
    expect(await keyOf(bob)).toEqual({ keypair: bob.keyId, records: 1 });
    for (const page of [a, b]) await page.context().close();
  });
});
