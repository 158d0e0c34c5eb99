import type { Page } from "playwright-core";
import { expect } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { gotoApp } from "./helpers";

type Person = Awaited<ReturnType<typeof createSession>>;

/**
 * The cast of the card page types' browser tests (pinboard, blog, gallery): Sue (super
 * administrator) makes a group in her browser, so its keys exist, with Ann, Ben and Cat; a page
 * of `type` that Ann may add to, Ben may only read, and Cat may not see.
 */
export async function groupWithCardPage(signedIn: (person: Person) => Promise<Page>, type: string, pageName: string, tag: string) {
  const people = await Promise.all(["Sue", "Ann", "Ben", "Cat"].map((name, i) => createSession({ admin: i === 0, superAdmin: i === 0, name: `${name} ${tag}` })));
  const [sue, ann, ben] = people as [Person, Person, Person, Person];
  const [s, a, b, c] = (await Promise.all(people.map(signedIn))) as [Page, Page, Page, Page];
  const group = await groupMadeIn(s, `Group ${tag}`, ["Ann", "Ben", "Cat"].map((name) => `${name} ${tag}`));
  const page = (await http<{ id: number }>("POST", "/api/pages", { token: sue.api_token, body: { group, name: pageName, type } })).body.id;
  expect((await http("POST", `/api/pages/${page}/permit`, { token: sue.api_token, body: { read: [{ role: false, id: ben.id }], use: [{ role: false, id: ann.id }] } })).status).toBe(200);
  await pageKeyMade(s, sue, group, page);
  return { group, page, browsers: { sue: s, ann: a, ben: b, cat: c } };
}

/**
 * A page restricted through the API (not the permission editor) has no key until an
 * administrator's browser visits it (docs/protocol.md, "Restricted pages"): Sue's browser opens the
 * page, and this waits until every reader holds a copy of its current generation.
 */
export async function pageKeyMade(browser: Page, admin: Pick<Person, "api_token">, group: number, page: number, code?: string) {
  await gotoApp(browser, `/group/${group}/page/${page}`, code);
  const keys = async () => (await http<{ generation: number; rekey: { missing: number[]; former: number[] } | null }>("GET", `/api/pages/${page}/keys`, { token: admin.api_token })).body;
  await expect.poll(keys, { timeout: 60_000, interval: 500 }).toMatchObject({ generation: expect.any(Number), rekey: { missing: [], former: [] } });
  expect((await keys()).generation).toBeGreaterThan(0);
}

/** A group made in an administrator's browser with these members (so its keys exist): its id, once its key is ready there. `code`: their secure code if not the test sessions'. */
export async function groupMadeIn(s: Page, name: string, members: string[], code?: string): Promise<number> {
  await gotoApp(s, "/group/new", code);
  await s.getByLabel("Name").fill(name);
  for (const who of members) {
    await s.getByRole("textbox", { name: "Search people" }).fill(who);
    await s.getByRole("listitem").filter({ hasText: who }).first().click();
  }
  await s.getByRole("button", { name: "Create group" }).click();
  await s.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
  const group = Number(/\/group\/(\d+)\//.exec(s.url())![1]);
  await s.locator('[data-group-key="ready"][data-group-key-epoch="0"]').waitFor({ timeout: 30_000 });
  return group;
}

/** Opens a card page and waits until its cards are decrypted. */
export async function openCardPage(page: Page, group: number, id: number, code?: string) {
  await gotoApp(page, `/group/${group}/page/${id}`, code);
  await page.getByText(/Decrypting cards…/).waitFor({ state: "detached", timeout: 60_000 });
}

/** A member without read rights: the page is not in their menu, and its address is refused. */
export async function expectRefused(page: Page, group: number, id: number, pageName: string) {
  await gotoApp(page, `/group/${group}/page/${id}`);
  await page.getByText("You are not allowed to access this page!").waitFor({ timeout: 30_000 });
  expect(await page.getByRole("link", { name: pageName }).count()).toBe(0);
}

/** Adds a card through the page's add button and the editor, and waits until it is pinned. */
export async function addCard(page: Page, title: string, content: string) {
  const dialog = page.getByRole("dialog");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Content").fill(content);
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.waitFor({ state: "detached", timeout: 60_000 });
  await page.getByRole("listitem").filter({ hasText: title }).waitFor();
}

/**
 * A card without media written in the card editor on a pinboard (title and content), as the tests
 * need a card of the group that is not on the page they look at; waits until it is saved.
 */
export async function pinnedCard(page: Page, group: number, board: number, title: string, content: string) {
  await openCardPage(page, group, board);
  await addCard(page, title, content);
}
