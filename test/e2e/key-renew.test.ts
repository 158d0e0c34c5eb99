import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certifyLegacyKey } from "@sealwork/crypto";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { aliceAndBob, conversationWith, send, signInAs, verifiedMessage, visitAs } from "../malicious/scenes";
import { shareGroup } from "../support/conversations";
import { type Member, chainOf, invitedMember, legacyMember, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { expectAccessible } from "./accessibility";
import { conversationPanel, messageList } from "./conversation-helpers";
import { KEY_WORK_TIMEOUT, gotoApp, keyPopupState, signIn, untilKeyPopupCloses } from "./helpers";

/**
 * Settings → Advanced, "Renew my key" (docs/protocol.md §14.3, rotation): Bob replaces his key
 * with a new one under a new secure code; his chain ends with a record his old key certified; his
 * pins (a contact he marked verified) move to the new key; Alice, who had marked him verified,
 * still sees him verified (a rotation, not a reset) and writes to his new key.
 *
 * A version 1 member (docs/protocol.md §14.14): uncertified, the modal says an administrator must
 * certify the key first; once the root certified it, the renewal makes fresh keys whose birth
 * record the v1 key signs. Alice, who had pinned and verified her v1 key, sees her certified and
 * still verified without a warning, and the existing conversation goes on for both (its key
 * renewed for Vera's new key when Alice, its admin, opens it).
 */
const BOB_NEW_CODE = "bobs-renewed-code-7";
const VERA_PASSWORD = "vera-renews-password-1";
const VERA_NEW_CODE = "veras-renewed-code-7";

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

  it("a version 1 member: refused until an administrator certified the key, then renewed into a certified identity; contacts follow without a warning", { timeout: 480_000 }, async () => {
    const root = await rootAdmin();
    const alice = await invitedMember(root);
    const email = `vera.renew.${Date.now()}@example.ch`;
    const vera = await legacyMember(root, email, VERA_PASSWORD, TEST_CODE);
    const veraId = vera.session.id;
    for (const [token, id, name] of [
      [alice.session.api_token, alice.session.id, "Alice Follows"],
      [vera.session.api_token, veraId, "Vera Renews"],
    ] as const) {
      expect((await http("PATCH", `/api/users/${id}`, { token, body: { name } })).status).toBe(200);
    }
    await shareGroup(alice.session, vera.session);

    // Alice writes to Vera (a v1 key, pinned "not certified") and marks her verified.
    const a = (await newVisitor(browser)).page;
    await signInAs(a, alice);
    const id = await conversationWith(a, email, "Before Vera's renewal");
    await send(a, "Hello Vera");
    await personRow(a, veraId).locator('[data-trust="legacy"]').waitFor({ timeout: 30_000 });
    await markVerified(a, veraId, "Vera Renews");

    // Vera reads it; in Settings her uncertified key cannot be renewed yet.
    const v = (await newVisitor(browser)).page;
    await signIn(v, email, VERA_PASSWORD, TEST_CODE);
    await gotoApp(v, `/conversation/${id}`, TEST_CODE);
    await messageList(v).getByText("Hello Vera", { exact: true }).waitFor({ timeout: 30_000 });
    await gotoApp(v, "/settings/", TEST_CODE);
    await v.getByRole("button", { name: "Renew my key…" }).click();
    const dialog = v.getByRole("dialog", { name: "Renew my key" });
    await dialog.getByText("no administrator has certified it yet", { exact: false }).waitFor({ timeout: 30_000 });
    expect(await dialog.getByLabel("Secure code", { exact: true }).count()).toBe(0);
    await v.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // The root certifies her key; now the modal offers the renewal, and it goes through.
    const certificate = await certifyLegacyKey({ userId: veraId, keys: vera.keys, anchor: root.me.keyId, certified: Date.now() }, root.me);
    expect((await http("POST", `/api/identities/${veraId}/legacy`, { token: root.session.api_token, body: { certificate } })).status).toBe(200);
    await v.getByRole("button", { name: "Renew my key…" }).click();
    await dialog.getByText("An administrator certified it", { exact: false }).waitFor({ timeout: 30_000 });
    await dialog.getByLabel("Secure code", { exact: true }).fill(VERA_NEW_CODE);
    await dialog.getByLabel("Repeat secure code").fill(VERA_NEW_CODE);
    await dialog.getByLabel("Repeat secure code").press("Enter");
    await dialog.waitFor({ state: "detached", timeout: KEY_WORK_TIMEOUT });
    await v.getByText("Your key was renewed.").waitFor();

    // On the server: a certified identity, its birth record certified by the v1 key.
    const bundle = await chainOf(vera.session.api_token, veraId);
    expect(bundle.legacy).toBeNull();
    expect(bundle.chain!.records.map((r) => r.record.certifiedBy.kind)).toEqual(["legacy"]);

    // Alice, in a fresh browser, opens the conversation: Vera is certified and still verified, no
    // warning; as its admin her browser renews the conversation's key for Vera's new key.
    const a2 = (await newVisitor(browser)).page;
    await signInAs(a2, alice);
    await gotoApp(a2, `/conversation/${id}`, TEST_CODE);
    await personRow(a2, veraId).locator('[data-trust="verified"]').waitFor({ timeout: 30_000 });
    expect(await personRow(a2, veraId).locator('[data-trust="legacy"], [data-trust="reset"]').count()).toBe(0);
    await conversationPanel(a2).locator('[data-key-epoch="1"]').waitFor({ timeout: 30_000 });
    expect(await a2.locator("[data-trust-warning]").count()).toBe(0);

    // Vera, with her new key, reads the history and writes; Alice reads her.
    await gotoApp(v, `/conversation/${id}`, VERA_NEW_CODE);
    await verifiedMessage(v, "Hello Vera").waitFor({ timeout: 30_000 });
    expect(await v.locator("[data-trust-warning]").count()).toBe(0);
    await send(v, "Vera with her certified key");
    await a2.reload();
    await gotoApp(a2, `/conversation/${id}`, TEST_CODE);
    await verifiedMessage(a2, "Vera with her certified key").waitFor({ timeout: 30_000 });
    for (const page of [a, a2, v]) await page.context().close();
  });
});
