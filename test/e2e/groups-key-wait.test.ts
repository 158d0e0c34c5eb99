import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { browserForSuite } from "./conversation-helpers";
import { gotoApp } from "./helpers";

/**
 * A group page that waits for its key, cheaply (issue 11): while this member's copy of the group
 * key is not there, the page looks at one small thing (its own wraps) in one poll for all its parts,
 * every 3 s at first and not while the tab is hidden, instead of loading and verifying the whole
 * log again every few seconds in each part; it still opens by itself once the copy is there. And
 * the membership fingerprint follows the log while the page stays open: another administrator's
 * change shows without a reload.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

/** A super administrator (Sue) and regular users, their names tagged so the person selector finds only them. */
const team = (tag: string, ...names: string[]) =>
  Promise.all([createSession({ admin: true, superAdmin: true, name: `Sue ${tag}` }), ...names.map((name) => createSession({ name: `${name} ${tag}` }))]);

/** The paths of the API requests a page makes from now on. */
function requestsOf(page: Page) {
  const paths: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/")) paths.push(pathname);
  });
  return {
    /** How many of the requests since `from` went to `path`. */
    count: (path: string, from = 0) => paths.slice(from).filter((p) => p === path).length,
    mark: () => paths.length,
  };
}

/** The page's tab hidden or shown again, as the browser says it when the user switches tabs. */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate(`(() => {
    Object.defineProperty(document, "visibilityState", { value: ${JSON.stringify(hidden ? "hidden" : "visible")}, configurable: true });
    Object.defineProperty(document, "hidden", { value: ${hidden}, configurable: true });
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  })()`);

describe("a group page waiting for its key", () => {
  const { signedIn } = browserForSuite();
  const keyReady = (page: Page, epoch: number) => page.locator(`[data-group-key="ready"][data-group-key-epoch="${epoch}"]`);
  const fingerprintOn = (page: Page) => page.locator("[data-membership-fingerprint]").getAttribute("data-membership-fingerprint", { timeout: 30_000 });
  const memberCard = (page: Page, uid: number) => page.locator(`[data-member="${uid}"]`);

  it("looks at its own wraps only, once for the page, slower never faster, not while hidden; opens by itself once its key is there", { timeout: 240_000 }, async () => {
    const tag = unique();
    const [sue, ann] = await team(tag, "Ann");
    // A group as POST /api/groups leaves it before its creator's browser makes its keys: Ann waits.
    await signedIn(ann!).then((p) => p.context().close());
    const made = await http<{ id: number }>("POST", "/api/groups", { token: sue!.api_token, body: { name: `Waiting ${tag}`, members: [ann!.id] } });
    const g = made.body.id;
    const a = await signedIn(ann!);
    const requests = requestsOf(a);
    const log = `/api/groups/${g}/log`;
    const wraps = `/api/groups/${g}/wraps`;

    for (const page of ["members", "drive"]) {
      await gotoApp(a, `/group/${g}/page/${page}`);
      await a.locator('[data-group-key="waiting"]').first().waitFor({ timeout: 30_000 });
      // The page's own load has read the log (once per part that needs the ring); then 10 s of waiting.
      await a.waitForTimeout(2_000);
      const from = requests.mark();
      await a.waitForTimeout(10_000);
      // Not the log again on each look (it was 3 or more per part before), and one look every 3 s for the whole page.
      expect(requests.count(log, from), `${page}: the log fetched while waiting`).toBe(0);
      expect(requests.count(wraps, from), `${page}: looks at one's wraps in 10 s`).toBeGreaterThanOrEqual(2);
      expect(requests.count(wraps, from), `${page}: looks at one's wraps in 10 s`).toBeLessThanOrEqual(4);
    }

    // A hidden tab does not look at all; shown again, it looks again.
    await setHidden(a, true);
    const hiddenFrom = requests.mark();
    await a.waitForTimeout(8_000);
    expect(requests.count(wraps, hiddenFrom)).toBe(0);
    await setHidden(a, false);
    await expect.poll(() => requests.count(wraps, hiddenFrom), { timeout: 15_000 }).toBeGreaterThan(0);

    // Sue opens the group: her browser makes its log, key and Ann's copy; Ann's page opens by itself.
    const s = await signedIn(sue!);
    await gotoApp(s, `/group/${g}/page/members`);
    await keyReady(s, 0).waitFor({ timeout: 30_000 });
    await a.locator('[data-group-key="waiting"]').waitFor({ state: "detached", timeout: 30_000 });
    expect(requests.count(log)).toBeGreaterThan(0);
    for (const p of [s, a]) await p.context().close();
  });

  it("shows another administrator's change in the membership fingerprint without a reload", { timeout: 240_000 }, async () => {
    const tag = unique();
    const [sue, ann, dan] = await team(tag, "Ann", "Dan");
    const [s, a] = await Promise.all([sue!, ann!].map(signedIn));
    // Dan signs in once (his keys are made): adding him is an entry of the log, his copy sealed by Sue's browser.
    await signedIn(dan!).then((p) => p.context().close());
    // Sue makes the group in her browser with Ann, and makes Ann a group admin (signed in the log).
    await s!.getByRole("button", { name: "Create" }).click();
    await s!.getByRole("menuitem", { name: "New group" }).click();
    await s!.getByLabel("Name").fill(`Fingerprint ${tag}`);
    await s!.getByRole("textbox", { name: "Search people" }).fill(`Ann ${tag}`);
    await s!.getByRole("listitem").filter({ hasText: `Ann ${tag}` }).first().click();
    await s!.getByRole("region", { name: "Initial members" }).getByText(`Ann ${tag}`).waitFor();
    await s!.getByRole("button", { name: "Create group" }).click();
    await s!.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
    const g = Number(/\/group\/(\d+)\//.exec(s!.url())![1]);
    await keyReady(s!, 0).waitFor({ timeout: 30_000 });
    await memberCard(s!, ann!.id).getByRole("button", { name: "Make group admin" }).click();
    await s!.getByRole("dialog").getByRole("button", { name: "Make group admin" }).click();
    await memberCard(s!, ann!.id).getByText("Group admin", { exact: true }).waitFor({ timeout: 30_000 });

    await gotoApp(a!, `/group/${g}/page/members`);
    await keyReady(a!, 0).waitFor({ timeout: 30_000 });
    await expect.poll(async () => fingerprintOn(a!), { timeout: 30_000 }).toBe(await fingerprintOn(s!));
    const before = await fingerprintOn(a!);
    await a!.evaluate("window.stayed = true");

    // Sue adds Dan: her browser signs the entry and seals his copy (Ann's keeper finds nothing to do, so nothing else refreshes her page).
    await s!.getByRole("button", { name: "Add member" }).click();
    const dialog = s!.getByRole("dialog", { name: "Add member" });
    await dialog.getByRole("textbox", { name: "Search people" }).fill(`Dan ${tag}`);
    await dialog.getByRole("listitem").filter({ hasText: `Dan ${tag}` }).first().click();
    await dialog.waitFor({ state: "detached", timeout: 30_000 });
    await memberCard(s!, dan!.id).waitFor();
    await expect.poll(async () => fingerprintOn(s!), { timeout: 30_000 }).not.toBe(before);
    const after = await fingerprintOn(s!);

    // Ann's page, never reloaded (the mark set in it stays), follows within its poll.
    await expect.poll(async () => fingerprintOn(a!), { timeout: 30_000 }).toBe(after);
    expect(await a!.evaluate("window.stayed")).toBe(true);
    for (const p of [s!, a!]) await p.context().close();
  });
});
