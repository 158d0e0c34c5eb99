import { db } from "@sealwork/core/db/service";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { shareGroup } from "../support/conversations";
import { ADMIN } from "../support/global-setup";
import { invitedMember, rootAdmin } from "../support/identities";
import { newInviteBody } from "../support/invites";
import { currentIdentity, newKeyReset, resetTakeover } from "../support/key-resets";
import { TEST_CODE } from "../support/keys";
import { expectAccessible } from "./accessibility";
import { conversationIdOf, conversationPanel, messageBox, messageList } from "./conversation-helpers";
import { KEY_WORK_TIMEOUT, gotoApp, keyPopupState, signIn, untilKeyPopupCloses } from "./helpers";

/**
 * An administrator resets the key of a user who lost their secure code (docs/protocol.md §14.3,
 * "Key resets"): Administration → Reset key… makes temporary keys and a reset code in the
 * administrator's browser; the user's key popup asks for the code, refuses a wrong one, and with
 * the right one and a new secure code makes fresh keys certified by the reset; a contact who had
 * them pinned and verified sees "key reset by an administrator" and can write to them again; a
 * conversation from before opens for them again once its admin's browser renewed its key.
 */
const INVITEE_PASSWORD = "invitee-password-1";
const BOB_NEW_CODE = "bobs-new-code-42";
const POLL_WAIT = 25_000;

describe("an administrator resets a lost key in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const personRow = (page: Page, uid: number) => conversationPanel(page).locator(`[data-participant="${uid}"]`);

  /** Alice starts a conversation with `email` and sends `text`; answers its id. */
  async function startWith(page: Page, email: string, title: string, text: string): Promise<number> {
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await page.getByLabel("Email or phone").fill(email);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByLabel("Title (optional)").fill(title);
    await page.getByRole("button", { name: "Start conversation" }).click();
    await page.waitForURL(/\/conversation\/\d+$/);
    await messageBox(page).fill(text);
    await messageBox(page).press("Enter");
    await messageList(page).locator('[data-status="sent"]').getByText(text).waitFor({ timeout: 30_000 });
    return conversationIdOf(page);
  }

  it("reset by an administrator, taken over with the reset code, shown to a contact, who writes to the new key", { timeout: 420_000 }, async () => {
    // The root administrator invites Alice and Bob (signed invitations, keys under TEST_CODE), who share a group.
    const root = await rootAdmin();
    const [alice, bob] = [await invitedMember(root), await invitedMember(root)];
    for (const [who, name] of [
      [alice!, "Alice Contact"],
      [bob!, "Bob Lostkey"],
    ] as const) {
      expect((await http("PATCH", `/api/users/${who.session.id}`, { token: who.session.api_token, body: { name } })).status).toBe(200);
    }
    await shareGroup(alice!.session, bob!.session);
    const aliceId = alice!.session.id;
    const bobId = bob!.session.id;

    // Alice writes to Bob and marks his key verified.
    const a = (await newVisitor(browser)).page;
    await signIn(a, alice!.email, INVITEE_PASSWORD, TEST_CODE);
    const before = await startWith(a, bob!.email, "Before the reset", "Hello Bob, before");
    await personRow(a, bobId).getByRole("button", { name: "Safety number of Bob Lostkey" }).click();
    const modal = a.getByRole("dialog", { name: "Safety number with Bob Lostkey" });
    await modal.getByRole("button", { name: "Mark as verified" }).click();
    await modal.locator('[data-verified="true"]').waitFor({ timeout: 30_000 });
    await a.keyboard.press("Escape");
    await personRow(a, bobId).locator('[data-trust="verified"]').waitFor();

    // A non-administrator has no administration, hence no reset.
    await gotoApp(a, "/instanceadmin/", TEST_CODE);
    await a.getByText("Requested content not found.").waitFor();
    expect(await a.getByRole("button", { name: /^Reset key for/ }).count()).toBe(0);

    // The administrator: no reset for themself nor for a pending invitation; Escape closes the modal.
    const pending = await newInviteBody();
    expect((await http("POST", "/api/instance/invite", { token: root.session.api_token, body: pending.body })).status).toBe(200);
    const admin = (await newVisitor(browser)).page;
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    const resetBob = admin.getByRole("button", { name: "Reset key for Bob Lostkey" });
    await resetBob.waitFor();
    expect(await admin.getByRole("button", { name: `Reset key for ${ADMIN.name}` }).count()).toBe(0);
    const pendingRow = admin.getByRole("row").filter({ hasText: pending.body.email });
    await pendingRow.getByRole("button", { name: /^Edit/ }).waitFor();
    expect(await pendingRow.getByRole("button", { name: /^Reset key for/ }).count()).toBe(0);
    await resetBob.click();
    const dialog = admin.getByRole("dialog", { name: "Reset the key of Bob Lostkey" });
    await dialog.getByText("Their current key stops working", { exact: false }).waitFor();
    await admin.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await resetBob.click();
    await dialog.getByText("Their current key stops working", { exact: false }).waitFor();
    await expectAccessible(admin, "administration, resetting a key");
    await dialog.getByRole("button", { name: "Reset key", exact: true }).click();
    const shown = dialog.locator("[data-reset-code]");
    await shown.waitFor({ timeout: 60_000 });
    await expectAccessible(admin, "administration, a reset code");
    const code = ((await shown.textContent()) ?? "").trim();
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    await dialog.getByText("valid for 7 days", { exact: false }).waitFor();
    await dialog.getByText("in person, or by phone", { exact: false }).waitFor();
    const pendingReset = await http<{ reset: { record: { userId: number; issuerUserId: number } } | null }>("GET", "/api/identities/invitation", { token: bob!.session.api_token });
    expect(pendingReset.body.reset?.record).toMatchObject({ userId: bobId, issuerUserId: root.session.id });

    // Bob signs in: the popup asks for the reset code, refuses a wrong one, takes the right one and a new secure code.
    const b = (await newVisitor(browser)).page;
    await signIn(b, bob!.email, INVITEE_PASSWORD, null);
    expect(await keyPopupState(b, ["temp", "missing", "error"])).toBe("temp");
    const popup = b.getByRole("dialog", { name: "Secure key" });
    await popup.getByRole("heading", { name: "Your key was reset" }).waitFor();
    await expectAccessible(b, "key popup: a key reset");
    const wrong = (code[0] === "A" ? "B" : "A") + code.slice(1);
    await popup.getByLabel("Reset code").fill(wrong);
    await popup.getByRole("button", { name: "Continue" }).click();
    await popup.getByText("Error decrypting your key.").waitFor({ timeout: KEY_WORK_TIMEOUT });
    await popup.getByLabel("Reset code").fill(code);
    await popup.getByRole("button", { name: "Continue" }).click();
    await popup.getByRole("heading", { name: "Choose your secure code" }).waitFor({ timeout: KEY_WORK_TIMEOUT });
    await popup.getByLabel("Secure code", { exact: true }).fill(BOB_NEW_CODE);
    await popup.getByLabel("Repeat secure code").fill(BOB_NEW_CODE);
    await popup.getByLabel("Repeat secure code").press("Enter");
    await untilKeyPopupCloses(b);
    await b.getByRole("heading", { name: "Hello, Bob Lostkey!" }).waitFor();
    const chain = await http<{ chain: { records: { record: { seq: number; certifiedBy: { kind: string } } }[] } }>("GET", `/api/identities/${bobId}`, { token: alice!.session.api_token });
    expect(chain.body.chain.records.map((r) => [r.record.seq, r.record.certifiedBy.kind])).toEqual([
      [0, "invitation"],
      [1, "reset"],
    ]);

    // Alice sees that an administrator reset Bob's key, with the safety number to compare; not blocking.
    await gotoApp(a, `/conversation/${before}`, TEST_CODE);
    await personRow(a, bobId).locator('[data-trust="reset"]').getByText("key reset by an administrator").waitFor({ timeout: 30_000 });
    await personRow(a, bobId).getByRole("button", { name: "Safety number of Bob Lostkey" }).click();
    await modal.locator("[data-reset-text]").waitFor({ timeout: 30_000 });
    await modal.locator('[data-verified="false"] [data-safety-number]').waitFor();
    await modal.getByRole("button", { name: "Mark as verified" }).waitFor();
    expect(await a.locator("[data-trust-warning]").count()).toBe(0);
    await expectAccessible(a, "a conversation with someone whose key was reset, their safety number");
    await a.keyboard.press("Escape");

    // The conversation from before: Alice's browser (its admin) renewed its key on opening it, for
    // Bob's new key; Bob reads its history again.
    await conversationPanel(a).locator('[data-key-epoch="1"]').waitFor({ timeout: 30_000 });
    await gotoApp(b, `/conversation/${before}`, BOB_NEW_CODE);
    await messageList(b).getByText("Hello Bob, before").waitFor({ timeout: POLL_WAIT });
    expect(await b.locator("[data-trust-warning]").count()).toBe(0);

    // A new conversation with Bob, sealed for his new key, which he reads.
    const after = await startWith(a, bob!.email, "After the reset", "Hello Bob, after your reset");
    await gotoApp(b, `/conversation/${after}`, BOB_NEW_CODE);
    await messageList(b).getByText("Hello Bob, after your reset").waitFor({ timeout: POLL_WAIT });
    await personRow(b, aliceId).waitFor();
  });

  it("another administrator sees pending and ended resets in the users table, with their end, until the user takes one over", { timeout: 240_000 }, async () => {
    const root = await rootAdmin();
    const [paul, rita, carol] = [await invitedMember(root), await invitedMember(root), await invitedMember(root, { admin: true })];
    const reset = async (who: typeof paul) => {
      const made = await newKeyReset(root, { userId: who.session.id, current: await currentIdentity(root.session.api_token, who.session.id) });
      const reply = await http<{ keypair_id: number; expires: number }>("POST", `/api/identities/${who.session.id}/reset`, { token: root.session.api_token, body: made.body });
      expect(reply.status).toBe(200);
      return { made, ...reply.body };
    };
    const paulReset = await reset(paul);
    const ritaReset = await reset(rita);
    const ritaEnd = Math.floor(Date.now() / 1000) - 86_400;
    await db().entities.keyreset.patch({ userId: rita.session.id }).set({ expiresAt: ritaEnd }).go();
    // Dates in the Swiss German locale, as the tables show them.
    const day = (seconds: number) => new Intl.DateTimeFormat("de-CH", { dateStyle: "medium" }).format(new Date(seconds * 1000));

    const c = (await newVisitor(browser)).page;
    await signIn(c, carol.email, INVITEE_PASSWORD, TEST_CODE);
    await c.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    const badge = (uid: number) => c.locator(`[data-user-row="${uid}"] [data-key-reset]`);
    await badge(paul.session.id).waitFor({ timeout: 30_000 });
    expect(await badge(paul.session.id).getAttribute("data-key-reset")).toBe("pending");
    expect(await badge(paul.session.id).textContent()).toBe(`Key reset pending until ${day(paulReset.expires)}`);
    expect(await badge(rita.session.id).getAttribute("data-key-reset")).toBe("ended");
    expect(await badge(rita.session.id).textContent()).toBe(`Key reset ended ${day(ritaEnd)}: reset again`);
    expect(await badge(carol.session.id).count()).toBe(0);
    expect(ritaReset.keypair_id).toBeGreaterThan(0);

    // Paul takes his over: the badge goes.
    const takeover = await resetTakeover(paul.session, paulReset.keypair_id, paulReset.made.code, await currentIdentity(root.session.api_token, paul.session.id));
    expect((await http("POST", "/api/keypairs", { token: paul.session.api_token, body: takeover.body })).status).toBe(200);
    await gotoApp(c, "/instanceadmin/", TEST_CODE);
    await badge(rita.session.id).waitFor({ timeout: 30_000 });
    expect(await badge(paul.session.id).count()).toBe(0);
  });

  it("a reset that has ended: the popup tells the user to ask for a new one", { timeout: 180_000 }, async () => {
    const root = await rootAdmin();
    const paul = await invitedMember(root);
    const made = await newKeyReset(root, { userId: paul.session.id, current: await currentIdentity(root.session.api_token, paul.session.id) });
    expect((await http("POST", `/api/identities/${paul.session.id}/reset`, { token: root.session.api_token, body: made.body })).status).toBe(200);
    await db().entities.keyreset.patch({ userId: paul.session.id }).set({ expiresAt: Math.floor(Date.now() / 1000) - 1 }).go();

    const page = (await newVisitor(browser)).page;
    await signIn(page, paul.email, INVITEE_PASSWORD, null);
    expect(await keyPopupState(page, ["temp", "missing", "error"])).toBe("temp");
    const popup = page.getByRole("dialog", { name: "Secure key" });
    // The server no longer names the ended reset: the code is asked for, and its envelope refused.
    await popup.getByRole("textbox").first().fill(made.code);
    await popup.getByRole("button", { name: "Continue" }).click();
    expect(await keyPopupState(page, ["error"])).toBe("error");
    await popup.getByText("The reset of your key has expired", { exact: false }).waitFor();
    await popup.getByText("Ask an administrator to reset your key again.", { exact: false }).waitFor();
    await popup.getByText("TTRX").waitFor();
  });
});
