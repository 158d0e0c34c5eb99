import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser } from "../support/browser";
import { aliceAndBob, conversationWith, send, verifiedMessage, visitAs } from "../malicious/scenes";
import { type Member, chainOf } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { expectAccessible } from "./accessibility";
import { conversationPanel } from "./conversation-helpers";
import { KEY_WORK_TIMEOUT, gotoApp, keyPopupState, untilKeyPopupCloses } from "./helpers";

/**
 * Settings → Advanced, "Renew my key" (docs/protocol.md §14.3, rotation): Bob replaces his key
 * with a new one under a new secure code; his chain ends with a record his old key certified; his
 * pins (a contact he marked verified) move to the new key; Alice, who had marked him verified,
 * still sees him verified (a rotation, not a reset) and writes to his new key.
 */
const BOB_NEW_CODE = "bobs-renewed-code-7";

describe("a user renews their key in Settings", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const personRow = (page: Page, uid: number) => conversationPanel(page).locator(`[data-participant="${uid}"]`);
  const visit = (member: Member) => visitAs(browser, member);

  /** Marks `name` (user `uid`) verified from the open conversation's panel. */
  async function markVerified(page: Page, uid: number, name: string): Promise<void> {
    await personRow(page, uid).getByRole("button", { name: `Safety number of ${name}` }).click();
    const modal = page.getByRole("dialog", { name: `Safety number with ${name}` });
    await modal.getByRole("button", { name: "Mark as verified" }).click();
    await modal.locator('[data-verified="true"]').waitFor({ timeout: 30_000 });
    await page.keyboard.press("Escape");
    await personRow(page, uid).locator('[data-trust="verified"]').waitFor();
  }

  it("renews Bob's key: a certified rotation, his pins kept, Alice still trusts and writes to him", { timeout: 420_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    for (const [who, name] of [
      [alice, "Alice Renew"],
      [bob, "Bob Renew"],
    ] as const) {
      expect((await http("PATCH", `/api/users/${who.session.id}`, { token: who.session.api_token, body: { name } })).status).toBe(200);
    }
    const [aliceId, bobId] = [alice.session.id, bob.session.id];

    // Alice writes to Bob and marks him verified; Bob marks Alice verified.
    const a = await visit(alice);
    const before = await conversationWith(a, bob.email, "Before the renewal");
    await send(a, "Hello Bob");
    await markVerified(a, bobId, "Bob Renew");
    const b = await visit(bob);
    await gotoApp(b, `/conversation/${before}`, TEST_CODE);
    await verifiedMessage(b, "Hello Bob").waitFor({ timeout: 30_000 });
    await markVerified(b, aliceId, "Alice Renew");

    // Settings → Advanced: the modal explains, and Escape closes it.
    await gotoApp(b, "/settings/", TEST_CODE);
    await b.getByRole("button", { name: "Renew my key…" }).click();
    const dialog = b.getByRole("dialog", { name: "Renew my key" });
    await dialog.getByText("Your contacts keep trusting you", { exact: false }).waitFor();
    await dialog.getByLabel("Secure code", { exact: true }).waitFor();
    await expectAccessible(b, "the Renew my key modal");
    await b.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // A code that breaks the rule is refused; then the new code renews the key.
    await b.getByRole("button", { name: "Renew my key…" }).click();
    await dialog.getByLabel("Secure code", { exact: true }).fill("short");
    await dialog.getByLabel("Repeat secure code").fill("short");
    await dialog.getByRole("button", { name: "Renew key" }).click();
    await dialog.getByRole("alert").waitFor();
    await dialog.getByLabel("Secure code", { exact: true }).fill(BOB_NEW_CODE);
    await dialog.getByLabel("Repeat secure code").fill(BOB_NEW_CODE);
    await dialog.getByLabel("Repeat secure code").press("Enter");
    await dialog.waitFor({ state: "detached", timeout: KEY_WORK_TIMEOUT });
    await b.getByText("Your key was renewed.").waitFor();

    // On the server, his chain ends with a record his previous key certified.
    const chain = (await chainOf(bob.session.api_token, bobId)).chain!;
    expect(chain.records).toHaveLength(2);
    const last = chain.records.at(-1) as { record: { seq: number; certifiedBy: { kind: string } } };
    expect(last.record.seq).toBe(1);
    expect(last.record.certifiedBy.kind).toBe("previous");

    // After a reload the old code no longer opens his key; the new one does.
    await b.reload();
    await keyPopupState(b, ["unlock"]);
    const popup = b.getByRole("dialog", { name: "Secure key" });
    await popup.getByLabel("Secure code", { exact: true }).fill(TEST_CODE);
    await popup.getByRole("button", { name: "Unlock" }).click();
    await popup.getByText("Error decrypting your key.").waitFor({ timeout: KEY_WORK_TIMEOUT });
    await popup.getByLabel("Secure code", { exact: true }).fill(BOB_NEW_CODE);
    await popup.getByRole("button", { name: "Unlock" }).click();
    await untilKeyPopupCloses(b);

    // His pins survived: Alice is still verified for him, in a new conversation.
    const fromBob = await conversationWith(b, alice.email, "Bob with his new key");
    await personRow(b, aliceId).locator('[data-trust="verified"]').waitFor({ timeout: 30_000 });

    // Alice, in a fresh browser, still sees Bob verified (a rotation, not a reset), and Bob reads her.
    const a2 = await visit(alice);
    const after = await conversationWith(a2, bob.email, "After the renewal");
    await personRow(a2, bobId).locator('[data-trust="verified"]').waitFor({ timeout: 30_000 });
    expect(await personRow(a2, bobId).locator('[data-trust="reset"]').count()).toBe(0);
    await send(a2, "Hello renewed Bob");
    await gotoApp(b, `/conversation/${after}`, BOB_NEW_CODE);
    await verifiedMessage(b, "Hello renewed Bob").waitFor({ timeout: 30_000 });
    expect(await b.locator("[data-trust-warning]").count()).toBe(0);
    expect(fromBob).toBeGreaterThan(0);
    for (const page of [a, a2, b]) await page.context().close();
  });
});
