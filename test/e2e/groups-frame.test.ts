import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { getAs, groupTeam, postAs } from "../support/groups";
import { type Person, browserForSuite, conversationIdOf, messageBox } from "./conversation-helpers";
import { expectAccessible as expectAccessibleAt } from "./accessibility";
import { errorDialogText } from "./helpers";

/**
 * The group frame in the browser (issue 12): the home's group list, the group start, the left
 * menu with levels, pages of each type, the settings popover (menu item, permissions, group
 * options, delete) and the texts for a bad id and a 403. Groups are made over the API (the
 * group creation screen is built beside this one).
 */
const TYPES = [
  ["Pinboard", "pinboard"],
  ["Blog", "blog"],
  ["Gallery", "gallery"],
  ["Calendar", "calendar"],
  ["Card Deck", "carddeck"],
  ["Form", "form"],
] as const;

/** Client-side navigation: a reload would ask for the secure code again. */
async function go(page: Page, path: string) {
  await page.evaluate(`history.pushState({}, "", ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent("popstate"));`);
}

const mainMenu = (page: Page) => page.getByRole("navigation", { name: "Main menu" });
const groupMenu = (page: Page, group: string) => mainMenu(page).getByRole("region", { name: `Pages of ${group}` });
const menuLabels = async (page: Page, group: string) => (await groupMenu(page, group).getByRole("link").allTextContents()).map((text) => text.trim());
const pageHeading = (page: Page, name: string) => page.getByRole("heading", { name, level: 1 });
const lock = (page: Page) => page.getByRole("img", { name: "Read-only page" });

/** The axe check, with the mouse off the menu link it last clicked (a hovered active link is the shell's own contrast question). */
async function expectAccessible(page: Page, screen: string) {
  await page.mouse.move(1270, 790);
  await expectAccessibleAt(page, screen);
}

async function openSettings(page: Page, item: string) {
  await page.getByRole("button", { name: "Page settings" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

describe("the group frame in the browser", () => {
  const { signedIn } = browserForSuite();

  it("a group admin sees the group on home, creates a page of each type, edits a menu item, its permissions and the group, and cannot delete internal pages", { timeout: 240_000 }, async () => {
    const team = await groupTeam("Frame Admins");
    const sue = team.admin as Person;
    const page = await signedIn(sue);

    // Home lists the group before the conversations, with its member count.
    const groups = page.getByRole("region", { name: "Groups" });
    const row = groups.getByRole("listitem").filter({ hasText: "Frame Admins" });
    await row.getByText("3 members").waitFor();
    await row.getByRole("link").click();

    // The group start opens the drive (no start page set); the menu offers (new) to the group admin.
    await page.waitForURL(`**/group/${team.group}/page/drive`);
    await pageHeading(page, "Drive").waitFor();
    expect(await menuLabels(page, "Frame Admins")).toEqual(["Drive", "Members", "Conversation", "(new)"]);
    expect(await lock(page).count()).toBe(0);
    await expectAccessible(page, "group drive page");

    // Deleting an internal page is refused with the spec's text.
    await openSettings(page, "Delete page");
    expect(await errorDialogText(page)).toContain("You cannot currently delete internal pages such as drive, members, etc.");
    await page.keyboard.press("Escape");

    // A page of each type: a name is required, then the page opens with its type's placeholder.
    for (const [label, type] of TYPES) {
      await groupMenu(page, "Frame Admins").getByRole("link", { name: "(new)" }).click();
      await page.waitForURL(`**/group/${team.group}/newpage`);
      if (type === "pinboard") {
        await page.getByRole("button", { name: "Create page" }).click();
        await page.getByText("Please enter a name for your page.").waitFor();
        await expectAccessible(page, "new page");
      }
      await page.getByLabel("Page name").fill(`My ${label}`);
      await page.getByRole("radio", { name: label }).check();
      await page.getByLabel("Page name").press("Enter");
      await pageHeading(page, `My ${label}`).waitFor();
      await page.locator(`[data-page-type="${type}"]`).waitFor();
    }
    expect(await menuLabels(page, "Frame Admins")).toEqual(["Drive", "Members", "Conversation", ...TYPES.map(([label]) => `My ${label}`), "(new)"]);
    const pages = (await getAs<{ pages: { id: number; name: string; type: string }[] }>(sue, `/api/pages?group=${team.group}`)).body.pages;
    expect(pages.filter((p) => p.name.startsWith("My ")).map((p) => p.type)).toEqual(TYPES.map(([, type]) => type));

    // The menu item: internal (greyed), a menu name, and an order that sinks it below the others.
    await groupMenu(page, "Frame Admins").getByRole("link", { name: "My Pinboard" }).click();
    await pageHeading(page, "My Pinboard").waitFor();
    expect(await groupMenu(page, "Frame Admins").getByRole("link", { name: "My Pinboard" }).getAttribute("data-dimmed")).toBeNull();
    await openSettings(page, "Configure menu item");
    const editor = page.getByRole("dialog", { name: "Configure menu item" });
    expect(await editor.getByLabel("Page name").inputValue()).toBe("My Pinboard");
    await editor.getByRole("switch", { name: "Internal page" }).check();
    await expectAccessible(page, "menu item editor");
    await editor.getByLabel("Menu name").fill("Board");
    await editor.getByLabel("Menu order").fill("300");
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.getByText("The menu order is a whole number from 0 to 255.").waitFor();
    await editor.getByLabel("Menu order").fill("200");
    await editor.getByLabel("Menu name").press("Enter");
    await editor.waitFor({ state: "detached" });
    await expect.poll(() => menuLabels(page, "Frame Admins")).toEqual(["Drive", "Members", "Conversation", "My Blog", "My Gallery", "My Calendar", "My Card Deck", "My Form", "Board", "(new)"]);
    expect(await groupMenu(page, "Frame Admins").getByRole("link", { name: "Board" }).getAttribute("data-dimmed")).toBe("true");
    // A reserved page keeps its name.
    await groupMenu(page, "Frame Admins").getByRole("link", { name: "Members" }).click();
    await pageHeading(page, "Members").waitFor();
    await openSettings(page, "Configure menu item");
    expect(await page.getByRole("dialog", { name: "Configure menu item" }).getByLabel("Page name").isDisabled()).toBe(true);
    await page.keyboard.press("Escape");
    await groupMenu(page, "Frame Admins").getByRole("link", { name: "Board" }).click();
    await pageHeading(page, "My Pinboard").waitFor();

    // Its permissions: Ann may read; with nobody under Use the editor says what that means.
    await openSettings(page, "Configure menu item");
    await page.getByRole("dialog", { name: "Configure menu item" }).getByRole("button", { name: "Access permissions" }).click();
    const permissions = page.getByRole("dialog", { name: "Permissions: My Pinboard" });
    await permissions.getByText("Nobody named.").first().waitFor();
    await permissions.getByLabel("Add to Read").click();
    await page.getByRole("option", { name: "Ann" }).click();
    await permissions.getByText("Nobody is named under Use", { exact: false }).waitFor();
    await expectAccessible(page, "permission editor");
    await permissions.getByLabel("Add to Use").click();
    await page.getByRole("option", { name: "Administrators" }).click();
    await permissions.getByRole("button", { name: "Save" }).click();
    await page.getByRole("dialog", { name: "Configure menu item" }).waitFor();
    await page.keyboard.press("Escape");
    const stored = (await getAs<{ read: { role: boolean; id: number }[]; use: { role: boolean; id: number }[] }>(sue, `/api/pages/${pages.find((p) => p.name === "My Pinboard")!.id}/permissions`)).body;
    expect(stored.read).toEqual([{ role: false, id: team.ann.id }]);
    expect(stored.use).toHaveLength(1);
    expect(stored.use[0]!.role).toBe(true);

    // The group's currencies: ISO 4217 only, upper-cased, the first the default.
    await openSettings(page, "Configure group");
    const groupEditor = page.getByRole("dialog", { name: "Configure group" });
    await groupEditor.getByLabel("Group currency codes").fill("chf, XYZ1");
    await groupEditor.getByRole("button", { name: "Save" }).click();
    await groupEditor.getByText("Not ISO 4217 currency codes: XYZ1").waitFor();
    await expectAccessible(page, "group editor");
    await groupEditor.getByLabel("Group currency codes").fill("chf, eur");
    await groupEditor.getByLabel("Group currency codes").press("Enter");
    await groupEditor.waitFor({ state: "detached" });
    const group = (await getAs<{ options: string }>(sue, `/api/groups/${team.group}`)).body;
    expect(JSON.parse(group.options).currencyCodes).toBe("CHF,EUR");

    // A page of the admin's own making is deleted after a confirmation, and leaves the menu.
    await groupMenu(page, "Frame Admins").getByRole("link", { name: "My Form" }).click();
    await pageHeading(page, "My Form").waitFor();
    await openSettings(page, "Delete page");
    await page.getByRole("dialog", { name: "Delete page" }).getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(`**/group/${team.group}/page/drive`);
    await expect.poll(() => menuLabels(page, "Frame Admins")).not.toContain("My Form");
    await page.context().close();
  });

  it("a member sees only the pages their level allows, internal ones greyed, with the lock on a read-only page and the locked permissions", { timeout: 180_000 }, async () => {
    const team = await groupTeam("Frame Members");
    const sue = team.admin;
    const ann = team.ann as Person;
    const made = async (name: string, type: string, read: number[], internal = false) => {
      const id = (await postAs<{ id: number }>(sue, "/api/pages", { group: team.group, name, type })).body.id;
      expect((await postAs(sue, `/api/pages/${id}/permit`, { read: read.map((uid) => ({ role: false, id: uid })), use: [] })).status).toBe(200);
      if (internal) expect((await postAs(sue, `/api/pages/${id}`, { _method: "PATCH", internal: 1 })).status).toBe(200);
      return id;
    };
    const notices = await made("Notices", "pinboard", [ann.id]);
    await made("Diary", "blog", []);
    const secret = await made("Secret", "gallery", [team.ben.id]);
    await made("Handbook", "calendar", [ann.id], true);
    await made("Backroom", "form", [], true);

    const page = await signedIn(ann);
    await page.getByRole("region", { name: "Groups" }).getByRole("listitem").filter({ hasText: "Frame Members" }).getByRole("link").click();
    await page.waitForURL(`**/group/${team.group}/page/drive`);
    // Level 0 pages are missing (Secret names only Ben, Backroom is internal and names nobody); the internal one she may read is greyed.
    expect(await menuLabels(page, "Frame Members")).toEqual(["Drive", "Members", "Conversation", "Notices", "Diary", "Handbook"]);
    expect(await groupMenu(page, "Frame Members").getByRole("link", { name: "Handbook" }).getAttribute("data-dimmed")).toBe("true");
    expect(await groupMenu(page, "Frame Members").getByRole("link", { name: "Notices" }).getAttribute("data-dimmed")).toBeNull();
    expect(await page.getByRole("button", { name: "Page settings" }).count()).toBe(0);

    // Level 1: read-only, with the lock and the spec's text; no add button, no settings.
    await groupMenu(page, "Frame Members").getByRole("link", { name: "Notices" }).click();
    await pageHeading(page, "Notices").waitFor();
    await lock(page).waitFor();
    await page.getByText("Not allowed to edit or create items from this page!").waitFor();
    expect(await page.getByRole("button", { name: "Add", exact: true }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Page settings" }).count()).toBe(0);
    await expectAccessible(page, "read-only page");
    await page.getByRole("button", { name: "Permissions", exact: true }).click();
    const permissions = page.getByRole("dialog", { name: "Permissions: Notices" });
    await permissions.getByText("Contact the author to request permission").waitFor();
    await permissions.getByText("Nobody is named under Use", { exact: false }).waitFor();
    await permissions.locator('[data-grant="user"]').filter({ hasText: /^Ann$/ }).waitFor();
    expect(await permissions.getByRole("button", { name: "Save" }).count()).toBe(0);
    await expectAccessible(page, "locked permissions");
    await page.keyboard.press("Escape");
    await permissions.waitFor({ state: "detached" });

    // Level 2 on a page with empty lists: no lock, and the add button.
    await groupMenu(page, "Frame Members").getByRole("link", { name: "Diary" }).click();
    await pageHeading(page, "Diary").waitFor();
    await page.getByRole("button", { name: "Add", exact: true }).waitFor();
    expect(await lock(page).count()).toBe(0);

    // A page she may not see, by its address: the 403 text; a page that does not exist: not found; no new page for her.
    await go(page, `/group/${team.group}/page/${secret}`);
    await page.getByText("You are not allowed to access this page!").waitFor();
    await go(page, `/group/${team.group}/page/99999999`);
    await page.getByText("Requested content not found.").waitFor();
    await go(page, `/group/${team.group}/newpage`);
    await page.getByText("You are not allowed to access this page!").waitFor();
    await go(page, `/group/${team.group}/page/${notices}`);
    await lock(page).waitFor();
    await page.context().close();
  });

  it("a non-member gets the 403 text, a bad group id the not-found text", { timeout: 120_000 }, async () => {
    const team = await groupTeam("Frame Outsiders");
    const page = await signedIn(team.outsider as Person);
    // In no group: home's empty state.
    await page.getByRole("region", { name: "Groups" }).getByText("No groups yet").waitFor();
    await go(page, `/group/${team.group}`);
    await page.getByText("You are not allowed to access this page!").waitFor();
    await go(page, `/group/${team.group}/page/drive`);
    await page.getByText("You are not allowed to access this page!").waitFor();
    await go(page, "/group/99999999");
    await page.getByText("Requested content not found.").waitFor();
    await go(page, "/group/abc");
    await page.getByText("Requested content not found.").waitFor();
    await page.context().close();
  });

  it("a regular member picks a fellow member with the person selector, and opens the conversation inside the group", { timeout: 120_000 }, async () => {
    const team = await groupTeam("Frame Talkers");
    // Ben signs in once: his account key is what the conversation key is sealed for.
    const [page, ben] = await Promise.all([signedIn(team.ann as Person), signedIn(team.ben as Person)]);
    await ben.context().close();
    await mainMenu(page).getByRole("link", { name: "New Conversation" }).click();
    const selector = page.getByRole("list", { name: "People found" });
    // Only people who share a group with her: Ben and Sue, not Olly.
    await page.getByLabel("Or pick someone from your groups").fill("Olly");
    await selector.getByText("Nobody found.").waitFor();
    await page.getByLabel("Or pick someone from your groups").fill("be");
    await selector.getByRole("button", { name: "Ben", exact: true }).waitFor();
    await expectAccessible(page, "person selector");
    await page.getByLabel("Or pick someone from your groups").press("Enter");
    await page.getByRole("region", { name: "People" }).getByText("Ben").waitFor();
    await page.getByRole("button", { name: "Start conversation" }).click();
    await page.waitForURL(/\/conversation\/\d+$/);
    const id = conversationIdOf(page);

    await go(page, `/group/${team.group}/conversation/${id}`);
    await groupMenu(page, "Frame Talkers").waitFor();
    await messageBox(page).waitFor();
    await page.context().close();
  });
});
