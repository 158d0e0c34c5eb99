import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { db } from "@sealwork/core/db/service";
import { DrivePermissions } from "@sealwork/core/drive/permissions";
import { GroupKeys } from "@sealwork/core/group/keys";
import { PageKeys } from "@sealwork/core/group/page-keys";
import { aliceAndBob, conversationWith, send, signInAs } from "../malicious/scenes";
import { startConversation } from "../support/conversations";
import { invitedMember, rootAdmin } from "../support/identities";
import { TEST_CODE } from "../support/keys";
import { conversationPanel, messageList } from "./conversation-helpers";
import { addCard, groupMadeIn, openCardPage, pageKeyMade } from "./card-pages";
import { driveDetails, driveItem, fillItemForm, openDrive } from "./drive-helpers";
import { KEY_WORK_TIMEOUT, gotoApp } from "./helpers";

/**
 * "Renew my key" by the only admin of a conversation (docs/protocol.md §14.3, "Content sealed for
 * the lost key"): nobody else may renew its key, so the renewing browser does it while it still
 * holds the old key. Alice starts a conversation with Bob (she is its only admin), renews her
 * key, and reads and writes in it with the new one at once; Bob reads her. The same for a group
 * whose only administrator renews, and for its restricted page and restricted folder, whose keys
 * nobody else could seal for his new key.
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

  /** Sam, who makes groups (a super administrator), signed in, and Bea, whom he picks by her name. */
  async function samAndBea() {
    const root = await rootAdmin();
    const [sam, bea] = [await invitedMember(root), await invitedMember(root)];
    const tag = Math.random().toString(36).slice(2, 7);
    await db().entities.user.patch({ id: sam.session.id }).set({ superAdmin: true }).go();
    expect((await http("PATCH", `/api/users/${bea.session.id}`, { token: bea.session.api_token, body: { name: `Bea ${tag}` } })).status).toBe(200);
    const { page: s } = await newVisitor(browser);
    await signInAs(s, sam);
    return { sam, bea, s, tag };
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
    const { sam, s, tag } = await samAndBea();
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

    const movedAt = Date.now();
    await renew(s);
    // The key-moved job (run here once more after the renewal) does not mark him: his wrap of epoch 1 is for his new key, so no epoch more.
    await GroupKeys.keyMoved(sam.session.id, movedAt);
    const status = (await http<{ epoch: number; missing_wraps: number[]; moved_keys: number[] }>("GET", `/api/groups/${g}/wraps/status`, { token: sam.session.api_token })).body;
    expect(status).toMatchObject({ epoch: 1, missing_wraps: [], moved_keys: [] });
    await gotoApp(s, `/group/${g}/page/members`, NEW_CODE);
    await s.locator('[data-group-key="ready"][data-group-key-epoch="1"]').waitFor({ timeout: 30_000 });
    await s.context().close();
  });

  it("his group's restricted page and restricted folder stay open to him: his browser seals their keys for his new key before the old copies go", { timeout: 400_000 }, async () => {
    const { sam, bea, s, tag } = await samAndBea();
    const g = await groupMadeIn(s, `Sam's ${tag}`, [`Bea ${tag}`], TEST_CODE);

    // A pinboard only Bea (and Sam, its administrator) reads, with Sam's card under its page key.
    const board = (await http<{ id: number }>("POST", "/api/pages", { token: sam.session.api_token, body: { group: g, name: "Lohn", type: "pinboard" } })).body.id;
    expect((await http("POST", `/api/pages/${board}/permit`, { token: sam.session.api_token, body: { read: [{ role: false, id: bea.session.id }], use: [] } })).status).toBe(200);
    await pageKeyMade(s, sam.session, g, board, TEST_CODE);
    await openCardPage(s, g, board, TEST_CODE);
    await addCard(s, `Lohnliste ${tag}`, "Nur für Bea");

    // A folder only Bea (and Sam) reads.
    await openDrive(s, g, TEST_CODE);
    await s.getByRole("button", { name: "Click to start storing files..." }).click();
    await fillItemForm(s, `Team ${tag}`);
    await driveItem(s, `Team ${tag}`).click();
    await s.getByRole("button", { name: "Create folder" }).click();
    await fillItemForm(s, `Akte ${tag}`);
    await driveItem(s, `Akte ${tag}`).click();
    await driveDetails(s).getByRole("button", { name: "Permissions" }).click();
    const editor = s.getByRole("dialog");
    await editor.getByLabel("Add to Read").click();
    await s.getByRole("option", { name: `Bea ${tag}` }).click();
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.waitFor({ state: "detached", timeout: 30_000 });
    await driveItem(s, `Akte ${tag}`).locator("[data-padlock]").waitFor({ timeout: 30_000 });

    const movedAt = Date.now();
    await renew(s);
    // The key-moved job, run here once more after the renewal (its queued run may come before or after): what his browser sealed since stays.
    await PageKeys.readerKeyMoved(g, sam.session.id, movedAt);
    await DrivePermissions.granteeKeyMoved(g, sam.session.id, movedAt);
    await GroupKeys.keyMoved(sam.session.id, movedAt);
    const holders = (await db().entities.pagekey.query.byPage({ pageId: board }).go()).data.at(-1)!.holders;
    expect(holders).toContain(sam.session.id);
    const folder = (await db().entities.driveitem.query.byGroup({ groupId: g }).go()).data.find((i) => i.kind === "folder")!;
    expect(folder.grantees).toContain(sam.session.id);

    // With the new key: his card on the restricted page, the folder's name in the drive.
    await openCardPage(s, g, board, NEW_CODE);
    await s.getByRole("listitem").filter({ hasText: `Lohnliste ${tag}` }).waitFor({ timeout: 30_000 });
    await openDrive(s, g, NEW_CODE);
    await driveItem(s, `Team ${tag}`).click();
    await driveItem(s, `Akte ${tag}`).locator("[data-padlock]").waitFor({ timeout: 30_000 });
    await s.context().close();
  });

  it("a version 1 conversation he archived stays open to a participant who renews: his browser seals his own copy again", { timeout: 300_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const title = `From the old days ${Math.random().toString(36).slice(2, 7)}`;
    // Made as protocol v1 made them: copies for Alice's and Bob's keys, no membership log; Bob archived it.
    const { id } = await startConversation(alice.session, [bob.session], { realKeys: true, v1: true, title });
    expect((await http("POST", `/api/conversations/${id}/archive`, { token: bob.session.api_token })).status).toBe(200);
    const copy = async () => (await http<{ sealed: string }>("GET", `/api/conversations/${id}`, { token: bob.session.api_token })).body.sealed;
    const before = await copy();

    const { page: b } = await newVisitor(browser);
    await signInAs(b, bob);
    await renew(b);
    expect(await copy()).not.toBe(before);

    await gotoApp(b, `/conversation/${id}`, NEW_CODE);
    await b.getByText(title).first().waitFor({ timeout: 30_000 });
    expect(await b.locator("[data-trust-warning]").count()).toBe(0);
    await b.context().close();
  });
});
