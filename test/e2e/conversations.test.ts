import type { Key } from "@sealwork/crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { encryptedMessage, shareGroup, startConversation } from "../support/conversations";
import { createSession } from "../support/users";
import { expectAccessible } from "./accessibility";
import { type Person, conversationIdOf, conversationPanel, messageBox, messageCount, messageList, messageTexts, olderPagesFetchedByThePage, overflowing, signedIn as signedInAs } from "./conversation-helpers";
import { errorDialogText, gotoApp, signIn, storedSession } from "./helpers";

/**
 * Conversations in the browser (issue 4): two or three people in their own browser contexts.
 * Messages from the other side arrive by the message poll (5 s, growing by 1.1), so waits for
 * them allow a little over 20 s; everything else waits on what the page shows.
 */
const POLL_WAIT = 25_000;

describe("conversations in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signedIn = (person: Person) => signedInAs(browser, person);

  async function appendText(author: Person, id: number, localid: string, text: string, key: Key) {
    const payload = await encryptedMessage(key, id, author.id, localid, text);
    const reply = await http("POST", `/api/conversations/${id}/append`, { token: author.api_token, body: { localid, payload } });
    expect(reply.status).toBe(200);
  }

  it("starts a conversation and exchanges messages both ways, with unread dots and paging", { timeout: 180_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    const a = await signedIn(ann);
    const b = await signedIn(ben);

    // Ann starts it from the left menu: Ben by his email address, with a title.
    await a.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
    await a.getByLabel("Email or phone").fill(ben.email!);
    await a.getByRole("button", { name: "Add", exact: true }).click();
    await a.getByRole("region", { name: "People" }).getByText(ben.email!).waitFor();
    await a.getByLabel("Title (optional)").fill("Lunch plans");
    await expectAccessible(a, "new conversation");
    await a.getByRole("button", { name: "Start conversation" }).click();
    await a.waitForURL(/\/conversation\/\d+$/);
    const id = conversationIdOf(a);
    await a.getByRole("heading", { name: "Lunch plans", level: 1 }).waitFor();

    // A conversation without messages says so (not '(no more messages)'); Send waits for something to send.
    await messageList(a).getByText("No messages yet. Write the first one below.").waitFor();
    expect(await a.getByText("(no more messages)").count()).toBe(0);
    const send = a.getByRole("button", { name: "Send", exact: true });
    expect(await send.isDisabled()).toBe(true);
    await messageBox(a).fill("   ");
    expect(await send.isDisabled()).toBe(true);
    await expectAccessible(a, "a new conversation with its panel");
    await messageBox(a).fill("Hi");
    expect(await send.isEnabled()).toBe(true);
    await messageBox(a).fill("");
    expect(await send.isDisabled()).toBe(true);
    // The visit heads the left panel's Recently list.
    const recently = a.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: "Recently" });
    await recently.getByRole("link", { name: "Lunch plans" }).waitFor();

    // Enter sends; an empty or blank message does nothing; Shift+Enter breaks the line.
    await messageBox(a).fill("Hello Ben");
    await messageBox(a).press("Enter");
    await messageList(a).locator('[data-status="sent"]').getByText("Hello Ben").waitFor();
    expect(await messageBox(a).inputValue()).toBe("");
    await messageBox(a).press("Enter");
    await messageBox(a).fill("   ");
    await messageBox(a).press("Enter");
    expect(await messageList(a).locator("[data-message]").count()).toBe(1);
    await messageBox(a).fill("line one");
    await messageBox(a).press("Shift+Enter");
    await messageBox(a).pressSequentially("line two");
    expect(await messageBox(a).inputValue()).toBe("line one\nline two");
    await messageBox(a).press("Enter");
    await expect.poll(() => messageTexts(a).allInnerTexts()).toEqual(["Hello Ben", "line one\nline two"]);
    // With messages, the start of the history is '(no more messages)'.
    await messageList(a).getByText("(no more messages)").waitFor();
    expect(await a.getByText("No messages yet.", { exact: false }).count()).toBe(0);

    // Ben sees it unread in his list, with the decrypted title, and opens it.
    await gotoApp(b, "/conversation/list");
    await b.getByRole("heading", { name: "Messages" }).waitFor();
    const row = b.locator(`main [data-conversation-row="${id}"]`);
    await row.getByText("Lunch plans").waitFor();
    await row.getByRole("img", { name: "Unread" }).waitFor();
    await expectAccessible(b, "conversation list");
    await b.getByRole("button", { name: /Conversations \(Unread messages\)/ }).waitFor();
    await row.click();
    await b.waitForURL(`**/conversation/${id}`);
    await expect.poll(() => messageTexts(b).allInnerTexts()).toEqual(["Hello Ben", "line one\nline two"]);
    await messageList(b).getByText("Ann", { exact: true }).first().waitFor();

    // Ben answers; Ann's poll brings it.
    await messageBox(b).fill("Hi Ann");
    await messageBox(b).press("Enter");
    await messageList(a).getByText("Hi Ann").waitFor({ timeout: POLL_WAIT });
    // And the other way round, while both screens are open.
    await messageBox(a).fill("See you at noon");
    await messageBox(a).press("Enter");
    await messageList(b).getByText("See you at noon").waitFor({ timeout: POLL_WAIT });
    // Having read it, Ben's list shows no dot.
    await gotoApp(b, "/conversation/list");
    await row.getByText("Lunch plans").waitFor();
    expect(await row.getByRole("img", { name: "Unread" }).count()).toBe(0);

    // Paging up: 55 messages seeded over the API with the client's own crypto.
    const seeded = await startConversation(ann, [ben], { realKeys: true, title: "Archive of old news" });
    for (let i = 1; i <= 55; i++) await appendText(i % 2 ? ann : ben, seeded.id, `seed-${i}`, `seed ${i}`, seeded.key);
    await gotoApp(a, `/conversation/${seeded.id}`);
    await messageList(a).getByText("seed 55", { exact: true }).waitFor();
    await expectAccessible(a, "a conversation with 50 messages");
    // Recently: the newest visit first.
    await expect.poll(() => recently.getByRole("link").allInnerTexts()).toEqual(["Archive of old news", "Lunch plans"]);
    // The newest page: 50 messages held (the list draws only those in view, see messageCount).
    expect(await messageCount(a)).toBe(50);
    expect(await a.getByText("(no more messages)").count()).toBe(0);
    // The worker that fetches older pages started with the newest page, before any paging back (issue 9).
    await expect.poll(() => a.workers().some((w) => w.url().includes("page-chain.worker"))).toBe(true);
    expect(await olderPagesFetchedByThePage(a)).toBe(0);
    // The newest at the bottom: the view starts scrolled down; scrolling to the top pages back.
    await expect.poll(() => messageList(a).evaluate((el) => el.scrollTop > 0)).toBe(true);
    await messageList(a).evaluate((el) => el.scrollTo(0, 0));
    await a.getByText("(no more messages)").waitFor();
    await expect.poll(() => messageCount(a)).toBe(55);
    // The older page came in above the place in view; scrolled up to the start, the oldest shows first.
    await messageList(a).evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => messageTexts(a).first().innerText()).toBe("seed 1");
    // The older page came through the page-chain worker, not from the page's own thread (issue 9).
    expect(a.workers().some((w) => w.url().includes("page-chain.worker"))).toBe(true);
    expect(await olderPagesFetchedByThePage(a)).toBe(0);

    // /panel-right/: the details of the conversation opened last, on a page of their own.
    await gotoApp(a, "/panel-right/");
    await a.getByRole("link", { name: "Open Archive of old news" }).waitFor();
    await conversationPanel(a).getByRole("list", { name: "People" }).getByText("Ben").waitFor();
    await expectAccessible(a, "/panel-right/");

    await a.context().close();
    await b.context().close();
  });

  // The conversation is made as protocol v1 made them (key copies and title not bound to its id):
  // one from before the update keeps opening, takes a new person and a new (bound) title.
  it("adds a third person who reads the history, administrates, removes them, renames and archives (a v1 conversation)", { timeout: 180_000 }, async () => {
    const [ann, ben, cem] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" }), createSession({ name: "Cem" })]);
    await shareGroup(ann, ben, cem);
    const a = await signedIn(ann);
    const b = await signedIn(ben);
    const c = await signedIn(cem);
    const { id, key } = await startConversation(ann, [ben], { realKeys: true, v1: true, title: "Before the update" });
    await appendText(ann, id, "history-1", "Written before Cem joined", key);

    await gotoApp(a, `/conversation/${id}`);
    await a.getByRole("heading", { name: "Before the update", level: 1 }).waitFor();
    await messageList(a).getByText("Written before Cem joined").waitFor();
    const people = conversationPanel(a).getByRole("list", { name: "People" });
    await people.getByText("Ben").waitFor();

    // Only what one may do is offered: Ann (the author) changes Ben, never herself.
    await conversationPanel(a).getByRole("button", { name: "Make Ben an admin" }).waitFor();
    await conversationPanel(a).getByRole("button", { name: "Remove Ben" }).waitFor();
    expect(await conversationPanel(a).getByRole("button", { name: /^(Make|Remove).*Ann/ }).count()).toBe(0);
    await people.getByRole("img", { name: "Ann is an admin" }).waitFor();
    // Ben, no admin, is offered nothing; he sees who is an admin.
    await gotoApp(b, `/conversation/${id}`);
    await conversationPanel(b).getByRole("list", { name: "People" }).getByRole("img", { name: "Ann is an admin" }).waitFor();
    expect(await conversationPanel(b).getByRole("button", { name: /admin|^Remove|Add more people/ }).count()).toBe(0);
    await conversationPanel(b).getByText("Cannot add people").waitFor();

    // Add Cem, who reads the history.
    await conversationPanel(a).getByRole("button", { name: "Add more people" }).click();
    const addDialog = a.getByRole("dialog", { name: "Add people" });
    await addDialog.getByLabel("Email or phone").fill(cem.email!);
    await addDialog.getByRole("button", { name: "Add", exact: true }).click();
    await people.getByText("Cem").waitFor();
    await gotoApp(c, `/conversation/${id}`);
    await c.getByRole("heading", { name: "Before the update", level: 1 }).waitFor();
    await messageList(c).getByText("Written before Cem joined").waitFor();

    // The admin star.
    await conversationPanel(a).getByRole("button", { name: "Make Ben an admin" }).click();
    await conversationPanel(a).getByRole("button", { name: "Remove admin from Ben" }).waitFor();
    expect((await people.locator('[data-admin="true"] [data-participant-name]').allInnerTexts()).sort()).toEqual(["Ann", "Ben"]);
    // Ben, an admin now, may change Cem, but not himself nor the author.
    await gotoApp(b, `/conversation/${id}`);
    await conversationPanel(b).getByRole("button", { name: "Make Cem an admin" }).waitFor();
    await conversationPanel(b).getByRole("button", { name: "Remove Cem" }).waitFor();
    expect(await conversationPanel(b).getByRole("button", { name: /^(Make|Remove).*(Ann|Ben)/ }).count()).toBe(0);

    // Remove Cem: on a reload Cem is not authorised any more.
    await conversationPanel(a).getByRole("button", { name: "Remove Cem" }).click();
    await people.getByText("Cem").waitFor({ state: "detached" });
    await gotoApp(c, `/conversation/${id}`);
    expect(await errorDialogText(c)).toContain("You are not authorized to access this conversation or pickup!");
    expect(await c.getByText("You are not authorized to access this conversation or pickup!").count()).toBe(1);

    // A title's limit is said, not applied silently: 300 characters stay in the field with the
    // count and cannot be saved; 200 characters of one long word wrap inside the panel.
    await conversationPanel(a).getByRole("button", { name: "Edit the title" }).click();
    const titleField = conversationPanel(a).getByLabel("Title", { exact: true });
    await titleField.fill("x".repeat(300));
    expect(await titleField.inputValue()).toHaveLength(300);
    await conversationPanel(a).getByText("Too long: at most 200 characters, this has 300.").waitFor();
    expect(await titleField.getAttribute("aria-invalid")).toBe("true");
    expect(await conversationPanel(a).getByRole("button", { name: "Save title" }).isDisabled()).toBe(true);
    await expectAccessible(a, "the panel with a title too long");
    const longWord = "Donaudampfschifffahrtsgesellschaft".repeat(6).slice(0, 200);
    await titleField.fill(longWord);
    await conversationPanel(a).getByText("200 of 200 characters").waitFor();
    await conversationPanel(a).getByRole("button", { name: "Save title" }).click();
    await conversationPanel(a).getByRole("heading", { name: longWord }).waitFor();
    expect(await overflowing(conversationPanel(a))).toEqual([]);
    expect(await overflowing(a.locator("main"))).toEqual([]);

    // Rename: click the title, set it (now bound to the conversation); Ben sees it after a reload.
    await conversationPanel(a).getByRole("button", { name: "Edit the title" }).click();
    await conversationPanel(a).getByLabel("Title", { exact: true }).fill("Project X");
    await conversationPanel(a).getByRole("button", { name: "Save title" }).click();
    await a.getByRole("heading", { name: "Project X", level: 1 }).waitFor();
    await gotoApp(b, `/conversation/${id}`);
    await b.getByRole("heading", { name: "Project X", level: 1 }).waitFor();

    // Archive: gone from Ben's list, still in Ann's.
    await gotoApp(b, "/conversation/list");
    await b.locator(`main [data-conversation-row="${id}"]`).waitFor();
    await gotoApp(b, `/conversation/${id}`);
    await conversationPanel(b).getByRole("button", { name: "Archive conversation" }).click();
    await b.waitForURL("**/conversation/list");
    await b.getByRole("heading", { name: "Messages" }).waitFor();
    await b.getByRole("link", { name: "New pickup" }).waitFor();
    expect(await b.locator(`[data-conversation-row="${id}"]`).count()).toBe(0);
    await gotoApp(a, "/conversation/list");
    await a.locator(`main [data-conversation-row="${id}"]`).getByText("Project X").waitFor();

    for (const page of [a, b, c]) await page.context().close();
  });

  
  /** Ann's page, signed in, and a conversation of hers with Ben that holds 55 messages (a page and more). */
  async function historyOf55() {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    // Both make their keys, so the conversation key can be sealed for them.
    const [a, b] = await Promise.all([signedIn(ann), signedIn(ben)]);
    await b.context().close();
    const seeded = await startConversation(ann, [ben], { realKeys: true });
    for (let i = 1; i <= 55; i++) await appendText(ann, seeded.id, `seed-${i}`, `seed ${i}`, seeded.key);
    return { a, seeded };
  }

  /** Opens the conversation and scrolls its history to the top, which pages back. */
  async function scrollToTheTop(page: Page, id: number) {
    await gotoApp(page, `/conversation/${id}`);
    await messageList(page).getByText("seed 55", { exact: true }).waitFor();
    await expect.poll(() => messageList(page).evaluate((el) => el.scrollTop > 0)).toBe(true);
    await messageList(page).evaluate((el) => el.scrollTo(0, 0));
  }

  it("pages back on the page's own thread when the page-chain worker does not load", { timeout: 120_000 }, async () => {
    const { a, seeded } = await historyOf55();
    // The worker's script never arrives: the pages it was to fetch are fetched by the page.
    let refused = 0;
    await a.route("**/page-chain.worker*", async (route) => {
      refused++;
      await route.abort("connectionrefused");
    });
    await scrollToTheTop(a, seeded.id);
    await a.getByText("(no more messages)").waitFor();
    await expect.poll(() => messageCount(a)).toBe(55);
    expect(refused).toBeGreaterThan(0);
    expect(await olderPagesFetchedByThePage(a)).toBeGreaterThan(0);
    expect(await a.getByRole("dialog", { name: "Error" }).count()).toBe(0);
    await a.context().close();
  });

  it("ends the session when the page-chain worker's request meets a token the server no longer accepts", { timeout: 120_000 }, async () => {
    const { a, seeded } = await historyOf55();
    // Only the older pages, which the worker fetches, meet the refusal.
    let refused = 0;
    await a.context().route(`**/api/conversations/${seeded.id}?before=*`, async (route) => {
      refused++;
      await route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify({ code: "unauthorized", message: "Not signed in" }) });
    });
    await scrollToTheTop(a, seeded.id);
    await a.waitForURL("**/login");
    expect(refused).toBeGreaterThan(0);
    expect(await olderPagesFetchedByThePage(a)).toBe(0);
    expect(await storedSession(a)).toBeUndefined();
    await a.context().close();
  });

  it("keeps a message that failed to send, with Retry sending it under the same local id", { timeout: 120_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    // Both make their keys, so the conversation key can be sealed for them.
    const [a, b] = await Promise.all([signedIn(ann), signedIn(ben)]);
    await b.context().close();
    const { id } = await startConversation(ann, [ben], { realKeys: true });
    await gotoApp(a, `/conversation/${id}`);
    await messageBox(a).waitFor();
    // The first append never reaches the server.
    const localids: string[] = [];
    await a.route(`**/api/conversations/${id}/append`, async (route) => {
      localids.push((route.request().postDataJSON() as { localid: string }).localid);
      if (localids.length === 1) await route.abort("connectionrefused");
      else await route.continue();
    });
    await messageBox(a).fill("Try again");
    await messageBox(a).press("Enter");
    expect(await errorDialogText(a)).toContain("Error sending your message. Please try again.");
    await a.getByRole("dialog", { name: "Error" }).getByRole("button", { name: "OK" }).click();
    const failed = messageList(a).locator('[data-status="failed"]');
    await failed.getByText("Not sent.").waitFor();
    await failed.getByRole("button", { name: "Retry" }).click();
    await messageList(a).locator('[data-status="sent"]').getByText("Try again").waitFor();
    expect(await messageList(a).locator("[data-message]").count()).toBe(1);
    expect(localids).toHaveLength(2);
    expect(localids[1]).toBe(localids[0]);
    await a.context().close();
  });

  /** The texts of the codes a conversation's load may answer (spec 000 §8). */
  const LOAD_TEXTS: Record<string, string> = {
    not_found: "Requested content not found.",
    conversation_not_found: "This conversation or pickup has been deleted!",
    conversation_forbidden: "You are not authorized to access this conversation or pickup!",
  };

  /** The open error dialog says `text`, which is on the page once; closed, the page says it once. */
  async function saysOnce(page: Page, text: string) {
    expect(await errorDialogText(page)).toContain(text);
    expect(await page.getByText(text, { exact: true }).count()).toBe(1);
    await page.getByRole("dialog", { name: "Error" }).getByRole("button", { name: "OK" }).click();
    await page.getByRole("dialog", { name: "Error" }).waitFor({ state: "detached" });
    await page.locator("main").getByText(text, { exact: true }).waitFor();
    expect(await page.getByText(text, { exact: true }).count()).toBe(1);
  }

  it("tells a conversation that never existed from a deleted or forbidden one, each said once", { timeout: 120_000 }, async () => {
    const [ann, ben, outsider] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" }), createSession({ name: "Olga" })]);
    await shareGroup(ann, ben);
    const { id } = await startConversation(ann, [ben]);
    const page = await signedIn(outsider);
    await gotoApp(page, `/conversation/${id}`);
    await saysOnce(page, LOAD_TEXTS.conversation_forbidden!);

    // An id nobody ever used: the text of the code the server answers.
    const answer = page.waitForResponse((r) => r.url().includes("/api/conversations/999999999"));
    await gotoApp(page, "/conversation/999999999");
    const { code } = (await (await answer).json()) as { code: string };
    expect(Object.keys(LOAD_TEXTS)).toContain(code);
    await saysOnce(page, LOAD_TEXTS[code]!);
    // Not an id at all: nothing is asked, it never existed.
    await gotoApp(page, "/conversation/not-a-number");
    await page.locator("main").getByText(LOAD_TEXTS.not_found!, { exact: true }).waitFor();
    expect(await page.getByText(LOAD_TEXTS.conversation_not_found!).count()).toBe(0);

    // Whichever code comes, its own text shows, and no other.
    for (const [stubbed, text] of Object.entries(LOAD_TEXTS)) {
      await page.route("**/api/conversations/424242?*", (route) =>
        route.fulfill({ status: stubbed === "conversation_forbidden" ? 403 : 404, contentType: "application/json", body: JSON.stringify({ code: stubbed, message: "English text the SPA never shows" }) }),
      );
      await gotoApp(page, "/conversation/424242");
      await saysOnce(page, text);
      await expectAccessible(page, `a conversation that failed to load (${stubbed})`);
      for (const other of Object.values(LOAD_TEXTS).filter((t) => t !== text)) expect(await page.getByText(other).count()).toBe(0);
      expect(await page.getByText("English text the SPA never shows").count()).toBe(0);
      await page.unroute("**/api/conversations/424242?*");
    }
    await page.context().close();
  });

  it("fetches the conversation screen's code while the conversation rows idle, before any is opened", { timeout: 60_000 }, async () => {
    const ann = await createSession({ name: "Ann" });
    const { context, page } = await newVisitor(browser);
    const screens: string[] = [];
    page.on("request", (request) => void (/\/assets\/conversation-page-[^/]*\.js$/.test(request.url()) && screens.push(request.url())));
    await signIn(page, ann.email!, ann.password);
    // Home shows the rows; nothing was opened, yet the screen's chunk comes in the idle time.
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    await expect.poll(() => screens.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await context.close();
  });

  it("says how long ago in the interface's language, keeps it current while the page stays open, and dates stay Swiss", { timeout: 120_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    await startConversation(ann, [ben]);
    const { context, page } = await newVisitor(browser);
    // The page's clock runs as usual until the test moves it on.
    await context.clock.install();
    await signIn(page, ann.email!, ann.password);
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "All Conversations" }).click();
    const time = page.locator("main [data-conversation-row] time");
    await expect.poll(() => time.innerText()).toBe("now");
    // Four minutes later, without a reload.
    await page.clock.fastForward("04:00");
    await expect.poll(() => time.innerText(), { timeout: 20_000 }).toBe("4 minutes ago");
    // The exact time on hover. The row may be drawn anew under a resting pointer while the list
    // refreshes (a loaded machine once left the tooltip unopened, once closed it before its text
    // was read), so the pointer leaves and comes back, and the text is read while it is open.
    const tooltip = page.getByRole("tooltip");
    await expect
      .poll(async () => {
        await page.mouse.move(0, 0);
        await time.hover();
        return tooltip.innerText({ timeout: 3_000 }).catch(() => "");
      }, { timeout: 30_000 })
      .toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);

    // In German, German words; the date as before.
    await page.getByRole("link", { name: "Open settings" }).click();
    await page.getByLabel("Language").selectOption("de");
    await page.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link", { name: "Alle Unterhaltungen" }).click();
    await expect.poll(() => time.innerText()).toBe("vor 4 Minuten");
    await page.clock.fastForward("02:00");
    await expect.poll(() => time.innerText(), { timeout: 20_000 }).toBe("vor 6 Minuten");
    await context.close();
  });
});
