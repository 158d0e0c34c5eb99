import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser, newVisitor } from "../support/browser";
import type { createSession } from "../support/users";
import { signIn } from "./helpers";

/** Locators and steps the conversation browser tests share (conversations, attachments). */
export type Person = Awaited<ReturnType<typeof createSession>>;

/** A fresh browser context signed in as `person` (keys made or unlocked), on home. */
export async function signedIn(browser: Browser, person: Person): Promise<Page> {
  const { page } = await newVisitor(browser);
  await signIn(page, person.email!, person.password);
  await page.getByRole("heading", { name: /^Hello/ }).waitFor();
  return page;
}

/** One browser for a describe block (launched before its tests, closed after), and fresh signed-in pages in it. */
export function browserForSuite() {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return { signedIn: (person: Person) => signedIn(browser, person) };
}

export const messageBox = (page: Page) => page.getByRole("textbox", { name: "Message" });
export const messageList = (page: Page) => page.getByRole("log", { name: "Messages" });
/**
 * How many messages the list holds: it is virtualised, so the page has only those in view (and a
 * few around them) while the list's `data-messages` counts them all.
 */
export const messageCount = async (page: Page) => Number(await messageList(page).getAttribute("data-messages"));
/** The texts of the messages drawn, oldest first. */
export const messageTexts = (page: Page) => messageList(page).locator("[data-message-text]");
/** How many older pages the page fetched on its own thread (its Resource Timing; the page-chain worker's requests are not in it). */
export const olderPagesFetchedByThePage = (page: Page) => page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.includes("?before=")).length);
/** The right panel of a conversation. */
export const conversationPanel = (page: Page) => page.getByRole("complementary", { name: "Conversation details" });
/** The id in the page's /conversation/{id} address. */
export const conversationIdOf = (page: Page) => Number(/\/conversation\/(\d+)/.exec(page.url())![1]);

/**
 * What sticks out to the right of `container` (a long word, a wide child): the tags and texts of
 * the elements whose right edge passes the container's, or of the container itself when it
 * scrolls sideways. Empty when everything fits.
 */
export const overflowing = (container: Locator) =>
  container.evaluate((root) => {
    const edge = root.getBoundingClientRect().right + 1;
    const out = [...root.querySelectorAll("*")].filter((el) => el.getBoundingClientRect().right > edge);
    if (root.scrollWidth > root.clientWidth + 1) out.unshift(root);
    return out.map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? "").slice(0, 40)}`);
  });
