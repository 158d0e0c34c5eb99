import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser } from "../support/browser";
import { rootAdmin } from "../support/identities";
import { adminBrowserOn, aliceAndBob, conversationWith, groupKeyReady, groupWithAdminBrowser, send, trustWarning, verifiedMessage, visitAs } from "../malicious/scenes";
import { TEST_CODE } from "../support/keys";
import { conversationPanel, messageBox } from "./conversation-helpers";
import { gotoApp, keyPopupState, passKeyPopup, renewKeyInSettings } from "./helpers";

/**
 * A message whose send fails because the sender's key moved (Bob renewed it in another browser)
 * is not lost: the page drops the old key and asks for the code, and once Bob has loaded his new
 * key the text and the file he had chosen are back in the message bar, to send with it. The server
 * refuses what the old key signs (`sender_key_stale`); where Bob administers the conversation, his
 * renewal started its next epoch first, so the send meets that (`epoch_stale`, then a copy of the
 * key for his new key, which this page does not hold). A group's conversation page does the same.
 */
const BOB_NEW_CODE = "bobs-kept-draft-7";
const TEXT = "Typed while the key moved";

describe("a message sent after the key moved elsewhere", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const files = (page: Page) => page.getByRole("list", { name: "Files to send" });

  /** In `staying`, still on the conversation with the old key: a file, the text, Enter; the append is refused and the key popup asks for the code. */
  async function sendWithOldKey(staying: Page, conversation: number): Promise<string> {
    await staying.getByTestId("attach-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("kept") });
    await staying.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await files(staying).getByText("notes.txt").waitFor();
    const refused = staying.waitForResponse((r) => r.url().includes(`/api/conversations/${conversation}/append`), { timeout: 30_000 });
    await messageBox(staying).fill(TEXT);
    await messageBox(staying).press("Enter");
    const answer = await refused;
    expect(answer.status()).toBe(409);
    await staying.locator("[data-key-moved]").waitFor({ timeout: 30_000 });
    expect(await keyPopupState(staying, ["missing"])).toBe("missing");
    await passKeyPopup(staying, BOB_NEW_CODE);
    return ((await answer.json()) as { code: string }).code;
  }

  /** The text and the file are in the bar; Enter sends them, signed by the new key, and Alice reads them. */
  async function sendKept(staying: Page, alice: Page, conversation: number): Promise<void> {
    await expect.poll(() => messageBox(staying).inputValue(), { timeout: 30_000 }).toBe(TEXT);
    await files(staying).getByText("notes.txt").waitFor();
    await messageBox(staying).press("Enter");
    await verifiedMessage(staying, TEXT).waitFor({ timeout: 30_000 });
    expect(await messageBox(staying).inputValue()).toBe("");
    await gotoApp(alice, `/conversation/${conversation}`, TEST_CODE);
    await verifiedMessage(alice, TEXT).waitFor({ timeout: 30_000 });
    await alice.getByRole("log", { name: "Messages" }).locator('[data-attachment-name="notes.txt"]').waitFor({ timeout: 30_000 });
  }

  /**
   * A conversation Bob made with Alice (he administers it: his renewal starts its next epoch for
   * his new key), open in Bob's staying tab; `renewing` is another of his, on the home page.
   */
  async function bobsConversation(title: string) {
    const { alice, bob } = await aliceAndBob();
    const renewing = await visitAs(browser, bob);
    const conversation = await conversationWith(renewing, alice.email, title);
    await send(renewing, "Hello Alice");
    const staying = await visitAs(browser, bob);
    await gotoApp(staying, `/conversation/${conversation}`, TEST_CODE);
    await verifiedMessage(staying, "Hello Alice").waitFor({ timeout: 30_000 });
    return { alice, renewing, staying, conversation };
  }

  it("refused as signed by the old key: back in the bar once the new key is loaded, sent when the conversation has its next key", { timeout: 420_000 }, async () => {
    const { alice, bob } = await aliceAndBob();
    const a = await visitAs(browser, alice);
    const conversation = await conversationWith(a, bob.email, "Kept draft, Alice's");
    await send(a, "Hello Bob");
    const [renewing, staying] = [await visitAs(browser, bob), await visitAs(browser, bob)];
    await gotoApp(staying, `/conversation/${conversation}`, TEST_CODE);
    await verifiedMessage(staying, "Hello Bob").waitFor({ timeout: 30_000 });

    await renewKeyInSettings(renewing, TEST_CODE, BOB_NEW_CODE);
    expect(await sendWithOldKey(staying, conversation)).toBe("sender_key_stale");

    // Alice's conversation key was sealed for Bob's old key: it waits for her browser to renew it.
    await trustWarning(staying, "key_moved").waitFor({ timeout: 30_000 });
    await gotoApp(a, `/conversation/${conversation}`, TEST_CODE);
    await conversationPanel(a).locator('[data-key-epoch="1"]').waitFor({ timeout: 30_000 });
    // Bob goes home and back, in the page (a reload would forget what the page holds in memory).
    const menu = staying.getByRole("navigation", { name: "Main menu" });
    await menu.getByRole("link", { name: "Home" }).click();
    await staying.getByRole("heading", { name: /^Hello/ }).waitFor();
    await menu.getByRole("link", { name: "Kept draft, Alice's" }).first().click();
    await sendKept(staying, a, conversation);
    for (const page of [a, renewing, staying]) await page.context().close();
  });

  it("met by the next epoch Bob's renewal started: back in the bar once the new key is loaded, and sent", { timeout: 420_000 }, async () => {
    const { alice, renewing, staying, conversation } = await bobsConversation("Kept draft, Bob's");
    // The staying tab's message poll is held off until the send: the renewal's rekey moves the
    // conversation's log on, and a poll that sees it first opens the news and finds the key moved
    // (the key popup at once, the flow of key-moved.test.ts) before anything is sent.
    const poll = /\/api\/conversations\/\d+\/poll/;
    await staying.route(poll, (route) => route.abort());
    await renewKeyInSettings(renewing, TEST_CODE, BOB_NEW_CODE);
    expect(await sendWithOldKey(staying, conversation)).toBe("epoch_stale");
    await staying.unroute(poll);
    const a = await visitAs(browser, alice);
    await sendKept(staying, a, conversation);
    for (const page of [a, renewing, staying]) await page.context().close();
  });

  it("noticed by the open tab's poll before anything is sent: what waits in the bar is back once the new key is loaded", { timeout: 420_000 }, async () => {
    const { alice, renewing, staying, conversation } = await bobsConversation("Kept draft, polled");
    await staying.getByTestId("attach-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("kept") });
    await files(staying).getByText("notes.txt").waitFor({ timeout: 60_000 });
    await messageBox(staying).fill(TEXT);

    // The renewal's rekey moves the log on; the staying tab's poll sees it, opens the news and
    // finds its key moved: the key popup, with nothing sent.
    const appends: string[] = [];
    staying.on("request", (request) => {
      if (request.url().includes("/append")) appends.push(request.url());
    });
    await renewKeyInSettings(renewing, TEST_CODE, BOB_NEW_CODE);
    await staying.locator("[data-key-moved]").waitFor({ timeout: 60_000 });
    expect(appends).toEqual([]);
    await passKeyPopup(staying, BOB_NEW_CODE);
    const a = await visitAs(browser, alice);
    await sendKept(staying, a, conversation);
    for (const page of [a, renewing, staying]) await page.context().close();
  });

  it("on a group's conversation page: back in the bar once the new key is loaded, sent when the group has its next key", { timeout: 420_000 }, async () => {
    const root = await rootAdmin();
    const { bob } = await aliceAndBob();
    // A group the setup administrator made; their browser, idling on it, makes its keys and later the next epoch.
    const { group: g, admin: s } = await groupWithAdminBrowser(browser, bob);
    const [renewing, staying] = [await visitAs(browser, bob), await visitAs(browser, bob)];
    await gotoApp(staying, `/group/${g}`, TEST_CODE);
    const pages = staying.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: "Pages of Shared group" });
    await pages.getByRole("link", { name: "Conversation" }).click();
    await staying.locator('[data-group-conversation="ready"]').waitFor({ timeout: 30_000 });

    // The administrator's browser leaves until Bob's old tab was refused: its keeper would otherwise
    // start the next epoch for Bob's new key first, and the append would meet that (epoch_stale, the
    // case of the test above) instead of the moved key.
    await s.context().close();
    await renewKeyInSettings(renewing, TEST_CODE, BOB_NEW_CODE);
    const refused = staying.waitForResponse((r) => r.url().includes(`/api/groups/${g}/conversation/append`), { timeout: 30_000 });
    await messageBox(staying).fill(TEXT);
    await messageBox(staying).press("Enter");
    expect(((await (await refused).json()) as { code: string }).code).toBe("sender_key_stale");
    await staying.locator("[data-key-moved]").waitFor({ timeout: 30_000 });
    await passKeyPopup(staying, BOB_NEW_CODE);

    // The group's key was sealed for Bob's old key: the administrator, back on the group, starts the
    // next epoch. Bob goes to the members and back, in the page (a reload would forget what it holds).
    const admin = await adminBrowserOn(browser, g);
    const status = async () => (await http<{ epoch: number; moved_keys: number[] }>("GET", `/api/groups/${g}/wraps/status`, { token: root.session.api_token })).body;
    await expect.poll(status, { timeout: 90_000, interval: 2_000 }).toMatchObject({ epoch: 1, moved_keys: [] });
    await pages.getByRole("link", { name: "Members" }).click();
    await groupKeyReady(staying, 1).waitFor({ timeout: 60_000 });
    await pages.getByRole("link", { name: "Conversation" }).click();
    await staying.locator('[data-group-conversation="ready"]').waitFor({ timeout: 30_000 });
    expect(await messageBox(staying).inputValue()).toBe(TEXT);
    await messageBox(staying).press("Enter");
    await staying.locator('[data-status="sent"][data-message-verified="true"]').getByText(TEXT, { exact: true }).waitFor({ timeout: 30_000 });
    for (const page of [admin, renewing, staying]) await page.context().close();
  });
});
