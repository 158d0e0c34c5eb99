import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { db } from "@sealwork/core/db/service";
import { ARGON2ID_DEFAULTS } from "@sealwork/crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxFor, uniqueEmail } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { createPickup as createPickupOverHttp } from "../support/pickups";
import { createSession } from "../support/users";
import { conversationIdOf, conversationPanel, messageBox, messageList, messageTexts, signedIn } from "./conversation-helpers";
import { expectAccessible } from "./accessibility";
import { errorDialogText, gotoApp } from "./helpers";

/**
 * Pickups in the browser (issue 5): a user creates a pickup with a message and a file; the guest
 * opens the emailed link in a fresh context, enters the security code, reads, downloads and
 * answers; wrong codes lock it; expired and deleted pickups are gone for the guest.
 */
const INCORRECT = "This pickup code is incorrect or has expired...";
const WRONG = "The security code is incorrect - please try again.";
const DELETED = "This conversation or pickup has been deleted!";
const DAMAGED = "This pickup link is damaged";
const POLL_WAIT = 25_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Pickups a browser opens are made with the default Argon2id parameters: a guest refuses lower ones. */
const createPickup = (creator: Parameters<typeof createPickupOverHttp>[0], options: Parameters<typeof createPickupOverHttp>[1] = {}) =>
  createPickupOverHttp(creator, { params: ARGON2ID_DEFAULTS, ...options });

const pickupPopup = (page: Page) => page.locator('[data-key-state="pickup"]');
const securityField = (page: Page) => pickupPopup(page).getByLabel("Security code");

/** The key popup's pickup state: enter the code and wait for the answer (the field empties on a refusal). */
async function enterSecurityCode(page: Page, code: string): Promise<void> {
  await securityField(page).fill(code);
  await pickupPopup(page).getByRole("button", { name: "Open pickup" }).click();
}

async function refusal(page: Page): Promise<string> {
  await expect.poll(() => securityField(page).inputValue(), { timeout: 30_000 }).toBe("");
  return (await pickupPopup(page).getByRole("alert").textContent()) ?? "";
}

/** A fresh browser context that opens the link: the pickup is looked up and the popup asks for the security code. */
async function guestOpens(browser: Browser, link: string): Promise<Page> {
  const { page } = await newVisitor(browser);
  await page.goto(link);
  return page;
}

describe("pickups in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("creates a pickup with a message and a file; the guest reads, downloads and answers; the creator sees it; delete", { timeout: 300_000 }, async () => {
    const creator = await createSession({ name: "Carla" });
    const a = await signedIn(browser, creator);
    const email = uniqueEmail("guest");

    // The home plus popover leads to the form.
    await a.getByRole("button", { name: "Create" }).click();
    await a.getByRole("menuitem", { name: "New pickup" }).click();
    await a.getByRole("heading", { name: "New pickup" }).waitFor();
    await expectAccessible(a, "new pickup");
    expect(await a.getByRole("combobox", { name: "Expires after" }).inputValue()).toBe("14 days");
    expect(await a.getByRole("checkbox", { name: "Remember the security code on this device" }).isChecked()).toBe(true);
    await a.getByLabel("Title (optional)").fill("Contract papers");
    await a.getByLabel("Recipient's email address").fill(email);
    await a.getByLabel("Message", { exact: true }).fill("Here are the papers we talked about.");
    await a.getByRole("button", { name: "Create pickup" }).click();
    await a.locator('[data-pickup-state="created"]').waitFor({ timeout: 60_000 });
    await expectAccessible(a, "pickup created");
    const url = (await a.getByTestId("pickup-url").textContent())!;
    const code = (await a.getByTestId("pickup-code").textContent())!;
    const securityCode = (await a.getByTestId("pickup-security-code").textContent())!;
    expect(code).toMatch(/^[A-Z]{5}-\d{5}$/);
    expect(securityCode).toMatch(/^\d{6}$/);
    // Fragment version 2: "2", the code, the link secret (22) and the check (4).
    expect(url).toMatch(new RegExp(`/login#2${code.replace("-", "")}[A-Za-z0-9_-]{26}$`));

    // The conversation: the message is its first message; a file goes with the attachment picker.
    await a.getByRole("link", { name: "Go to the conversation" }).click();
    await messageTexts(a).first().waitFor();
    expect(await messageTexts(a).allTextContents()).toEqual(["Here are the papers we talked about."]);
    const id = conversationIdOf(a);
    const panel = conversationPanel(a);
    expect(await panel.getByTestId("pickup-security-code").textContent()).toBe(securityCode);
    await panel.getByText("Not collected yet").waitFor();
    await panel.getByText("Cannot add people").waitFor();
    expect(await panel.getByRole("button", { name: "Add more people" }).count()).toBe(0);
    // Nobody is made an admin of a pickup or removed from it: the creator is offered neither.
    await panel.getByRole("list", { name: "People" }).getByText("Guest").waitFor();
    expect(await panel.getByRole("button", { name: /admin|^Remove/ }).count()).toBe(0);
    const papers = randomBytes(300 * 1024);
    await a.getByTestId("attach-file").setInputFiles({ name: "papers.pdf", mimeType: "application/pdf", buffer: papers });
    await a.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await messageBox(a).press("Enter");
    await messageList(a).locator('[data-attachment-name="papers.pdf"]').waitFor();
    await expectAccessible(a, "a pickup with an attachment, its panel and details");

    // The invitation email carries the link (never the security code).
    const [mail] = await outboxFor(email);
    expect(mail!.text).toContain(url);
    expect(mail!.text).not.toContain(securityCode);

    // The guest, in a fresh context: the link fills the code and continues to the security code.
    const g = await guestOpens(browser, url);
    await pickupPopup(g).waitFor();
    await expectAccessible(g, "the pickup popup");
    await enterSecurityCode(g, "12345");
    await pickupPopup(g).getByText("The security code has exactly 6 digits.").waitFor();
    await enterSecurityCode(g, securityCode);
    await g.waitForURL(new RegExp(`/conversation/${id}$`), { timeout: 30_000 });
    await messageTexts(g).first().waitFor();
    expect(await messageTexts(g).allTextContents()).toEqual(["Here are the papers we talked about."]);
    await g.getByTestId("user-block").getByText("Guest").waitFor();
    await expectAccessible(g, "the guest's pickup");
    expect(await g.getByRole("link", { name: "Settings" }).count()).toBe(0);
    expect(await g.getByRole("link", { name: "Open settings" }).count()).toBe(0);
    expect(await conversationPanel(g).getByRole("button", { name: "Delete pickup" }).count()).toBe(0);

    // Download and compare.
    const file = messageList(g).locator('[data-attachment-name="papers.pdf"]');
    await file.getByRole("button", { name: "Download papers.pdf" }).click();
    await file.getByRole("link", { name: "Save papers.pdf" }).waitFor({ timeout: 60_000 });
    await expectAccessible(g, "an attachment ready to save");
    const [download] = await Promise.all([g.waitForEvent("download"), file.getByRole("link", { name: "Save" }).click()]);
    expect(sha256(await readFile((await download.path())!))).toBe(sha256(papers));

    // The guest answers with text and a file.
    const answer = randomBytes(40 * 1024);
    await g.getByTestId("attach-file").setInputFiles({ name: "signed.pdf", mimeType: "application/pdf", buffer: answer });
    await g.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await messageBox(g).fill("Signed and returned.");
    await messageBox(g).press("Enter");
    await messageList(g).locator('[data-attachment-name="signed.pdf"]').waitFor();

    // Home and other pages are not for the guest: back to the pickup.
    await g.goto("/settings/");
    await pickupPopup(g).waitFor();
    // A reload asks for the security code again (the keys were in memory only).
    await enterSecurityCode(g, securityCode);
    await g.waitForURL(new RegExp(`/conversation/${id}$`), { timeout: 30_000 });
    await messageTexts(g).filter({ hasText: "Signed and returned." }).waitFor();

    // The creator sees the answer (polling) and, after a reload, the redemption time.
    await messageTexts(a).filter({ hasText: "Signed and returned." }).waitFor({ timeout: POLL_WAIT });
    await gotoApp(a, `/conversation/${id}`);
    await conversationPanel(a).getByText(/^Collected at \d/).waitFor();
    const file2 = messageList(a).locator('[data-attachment-name="signed.pdf"]');
    await file2.getByRole("button", { name: "Download" }).click();
    await file2.getByRole("link", { name: "Save" }).waitFor({ timeout: 60_000 });
    const [download2] = await Promise.all([a.waitForEvent("download"), file2.getByRole("link", { name: "Save" }).click()]);
    expect(sha256(await readFile((await download2.path())!))).toBe(sha256(answer));

    // Delete: the pickup is gone for the guest; for the creator it was deleted (said once).
    await conversationPanel(a).getByRole("button", { name: "Delete pickup" }).click();
    await a.waitForURL(/\/conversation\/list$/);
    const late = await guestOpens(browser, url);
    expect(await errorDialogText(late)).toContain(INCORRECT);
    await gotoApp(a, `/conversation/${id}`);
    expect(await errorDialogText(a)).toContain(DELETED);
    expect(await a.getByText(DELETED).count()).toBe(1);

    await Promise.all([a.context().close(), g.context().close(), late.context().close()]);
  });

  it("locks after ten wrong security codes", { timeout: 180_000 }, async () => {
    const creator = await createSession();
    const p = await createPickup(creator);
    const g = await guestOpens(browser, p.link);
    const wrong = p.securityCode === "000000" ? "111111" : "000000";
    for (let i = 1; i <= 9; i++) {
      await enterSecurityCode(g, wrong);
      expect(await refusal(g)).toContain(WRONG);
    }
    await enterSecurityCode(g, wrong);
    expect(await refusal(g)).toContain(INCORRECT);
    // Locked for good: the right code does not open it either.
    await enterSecurityCode(g, p.securityCode);
    expect(await refusal(g)).toContain(INCORRECT);
    await g.context().close();
  });

  it("an expired pickup shows the pickup-incorrect text", { timeout: 120_000 }, async () => {
    const creator = await createSession();
    const p = await createPickup(creator, { expiredays: 2 });
    await db().entities.pickup.patch({ conversationId: p.conversation_id }).set({ expireAt: Math.floor(Date.now() / 1000) - 1 }).go();
    const g = await guestOpens(browser, p.link);
    expect(await errorDialogText(g)).toContain(INCORRECT);
    await g.context().close();
  });

  it("a typed code of a pickup with a link secret asks for the link; a code-only pickup opens with the typed code", { timeout: 120_000 }, async () => {
    const creator = await createSession();
    const linked = await createPickup(creator);
    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    await page.getByRole("radio", { name: "Pickup" }).check();
    await page.getByLabel("Pickup code").fill(linked.code);
    await page.getByRole("button", { name: "Continue" }).click();
    expect(await errorDialogText(page)).toContain("This pickup can only be opened with its link.");
    await page.getByRole("dialog", { name: "Error" }).getByRole("button").first().click();

    // The creator chooses a code-only pickup: its link has no secret, and the typed code opens it.
    const a = await signedIn(browser, creator);
    await gotoApp(a, "/pickup/new");
    await a.getByLabel("Recipient's email address").fill(uniqueEmail("guest"));
    await a.getByLabel("Message", { exact: true }).fill("Typed by hand");
    await a.getByRole("checkbox", { name: "Let the guest type the code instead of opening the link" }).check();
    await a.getByRole("button", { name: "Create pickup" }).click();
    await a.locator('[data-pickup-state="created"]').waitFor({ timeout: 60_000 });
    const code = (await a.getByTestId("pickup-code").textContent())!;
    const securityCode = (await a.getByTestId("pickup-security-code").textContent())!;
    expect(await a.getByTestId("pickup-url").textContent()).toMatch(new RegExp(`/login#2${code.replace("-", "")}[A-Za-z0-9_-]{4}$`));
    await a.context().close();

    await page.getByLabel("Pickup code").fill(code);
    await page.getByRole("button", { name: "Continue" }).click();
    await enterSecurityCode(page, securityCode);
    await page.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
    await messageList(page).getByText("Typed by hand").waitFor({ timeout: POLL_WAIT });
    await context.close();
  });

  it("a link cut short or with a character changed says it is damaged, asks nothing and costs no attempt", { timeout: 180_000 }, async () => {
    const creator = await createSession();
    const p = await createPickup(creator);
    const fragment = p.link.slice(p.link.indexOf("#") + 1);
    const changeAt = (i: number) => fragment.slice(0, i) + (fragment[i] === "A" ? "B" : "A") + fragment.slice(i + 1);
    const damaged = [
      fragment.slice(0, -1), // the last character lost
      fragment.slice(0, 32), // cut where a version 1 link would end
      fragment.slice(0, 12), // cut to the length of a typed code
      changeAt(20), // one character of the link secret changed
      changeAt(3), // one of the code
      changeAt(fragment.length - 1), // one of the check
    ];
    for (const broken of damaged) {
      const { page } = await newVisitor(browser);
      const pickupCalls: string[] = [];
      page.on("request", (request) => void (request.url().includes("/api/pickup") && pickupCalls.push(request.url())));
      await page.goto(`/login#${broken}`);
      const alert = page.getByRole("alert").filter({ hasText: DAMAGED });
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Nothing was counted against the pickup.");
      expect(await page.getByRole("radio", { name: "Pickup" }).isChecked()).toBe(true);
      expect(await pickupPopup(page).count()).toBe(0);
      if (broken === damaged[0]) await expectAccessible(page, "login with a damaged pickup link");
      expect(pickupCalls).toEqual([]);
      // Pasted into the code field, it is refused as well.
      await page.getByLabel("Pickup code").focus();
      await page.evaluate(`(() => {
        const data = new DataTransfer();
        data.setData("text", ${JSON.stringify(`${new URL(p.link).origin}/login#${broken}`)});
        document.activeElement.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
      })()`);
      await page.getByText("This pickup link is damaged: part of it is missing or was changed. Please copy all of it.").waitFor();
      expect(pickupCalls).toEqual([]);
      await page.context().close();
    }

    // Ten wrong security codes lock a pickup; these links never got that far, so all ten are left:
    // nine wrong ones still leave the right one to open it.
    const g = await guestOpens(browser, p.link);
    const wrong = p.securityCode === "000000" ? "111111" : "000000";
    for (let i = 1; i <= 9; i++) {
      await enterSecurityCode(g, wrong);
      expect(await refusal(g)).toContain(WRONG);
    }
    await enterSecurityCode(g, p.securityCode);
    await g.waitForURL(new RegExp(`/conversation/${p.conversation_id}$`), { timeout: 30_000 });
    await g.context().close();
  });

  it("the guest refuses Argon2id parameters below the floor before deriving anything (issue 11, item 5)", { timeout: 120_000 }, async () => {
    const creator = await createSession();
    const p = await createPickup(creator);
    const { context, page } = await newVisitor(browser);
    // A lying server: the lookup answer names 1 MiB and 1 pass, so that the auth key it is shown
    // would be cheap to search the 10^6 security codes against.
    await page.route("**/api/pickup/*?meta=1", async (route) => {
      const response = await route.fetch();
      const meta = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...meta, memoryKiB: 1024, iterations: 1 } });
    });
    const recoveries: string[] = [];
    page.on("request", (request) => void (request.url().includes("/api/pickup/recover/") && recoveries.push(request.url())));
    await page.goto(p.link);
    const text = await errorDialogText(page);
    expect(text).toContain("This pickup asks for weaker protection than this app accepts (1 MiB and 1 passes; at least 64 MiB and 3 passes are needed).");
    expect(text).toContain("Nothing was computed or sent.");
    // Nothing was derived: no security code was asked for, no auth key shown to the server.
    expect(await pickupPopup(page).count()).toBe(0);
    expect(recoveries).toEqual([]);
    await context.close();

    // A pickup that really was made with low parameters (over HTTP, as a hostile client could) is refused the same way.
    const weak = await createPickupOverHttp(creator);
    const g = await guestOpens(browser, weak.link);
    expect(await errorDialogText(g)).toContain("This pickup asks for weaker protection than this app accepts");
    await g.context().close();
  });

  it("'I send the link myself': the link's secret and the code never reach the server, the mail is a notice, the guest opens the link (issue 11, item 5)", { timeout: 180_000 }, async () => {
    const creator = await createSession({ name: "Selma" });
    const a = await signedIn(browser, creator);
    const email = uniqueEmail("self");
    const sent: string[] = [];
    a.on("request", (request) => void sent.push(`${request.method()} ${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ""}`));
    await gotoApp(a, "/pickup/new");
    // The form says what the server-mailed link costs before the choice is made.
    const group = a.getByRole("radiogroup", { name: "How the recipient gets the link" });
    await group.getByText("whoever runs the server could keep it, and then only the 6-digit security code protects the pickup.", { exact: false }).waitFor();
    expect(await a.getByRole("radio", { name: "The server emails the link" }).isChecked()).toBe(true);
    await a.getByRole("radio", { name: "I send the link myself" }).check();
    await a.getByLabel("Recipient's email address").fill(email);
    await a.getByLabel("Message", { exact: true }).fill("Passed on by hand.");
    await a.getByRole("button", { name: "Create pickup" }).click();
    await a.locator('[data-pickup-state="created"]').waitFor({ timeout: 60_000 });
    await a.getByText("Now send the link to the recipient yourself").waitFor();
    await expectAccessible(a, "a pickup whose link the creator sends");
    const link = (await a.getByTestId("pickup-url").textContent())!;
    const code = (await a.getByTestId("pickup-code").textContent())!;
    const securityCode = (await a.getByTestId("pickup-security-code").textContent())!;
    const fragment = link.slice(link.indexOf("#") + 1);
    const linkSecret = fragment.slice(11, 33);
    expect(linkSecret).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // The creator's mail program gets the link, never the security code.
    const mailto = (await a.getByTestId("pickup-mailto").getAttribute("href"))!;
    expect(mailto.startsWith(`mailto:${email}?subject=`)).toBe(true);
    const mailBody = decodeURIComponent(mailto.slice(mailto.indexOf("&body=") + 6));
    expect(mailBody).toContain(link);
    expect(mailBody).not.toContain(securityCode);

    // No request of the creator's page carried the fragment, the link secret or the code in any form.
    await a.getByRole("link", { name: "Go to the conversation" }).click();
    await messageTexts(a).first().waitFor();
    expect(sent.length).toBeGreaterThan(5);
    for (const secret of [fragment, linkSecret, code, code.replace("-", ""), securityCode]) {
      expect(sent.filter((line) => line.includes(secret))).toEqual([]);
    }
    // Nor did the outbox: the recipient was mailed a notice without the link.
    const mails = await outboxFor(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("sends you the link to open them directly");
    for (const secret of [link, fragment, linkSecret, code.replace("-", ""), securityCode]) expect(mails[0]!.text).not.toContain(secret);

    // The guest opens the link the creator passed on.
    const g = await guestOpens(browser, link);
    await enterSecurityCode(g, securityCode);
    await g.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
    await messageList(g).getByText("Passed on by hand.").waitFor({ timeout: POLL_WAIT });
    await Promise.all([a.context().close(), g.context().close()]);
  });
});
