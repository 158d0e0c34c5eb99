import { readFileSync } from "node:fs";
import { db } from "@sealwork/core/db/service";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { expectAccessible } from "./accessibility";
import { startConversation } from "../support/conversations";
import { browserForSuite, messageBox, messageList } from "./conversation-helpers";
import { errorDialogText, gotoApp } from "./helpers";

/**
 * A group's drive in the browser (issue 13; spec 001 §2, §4, §5): drives and folders named and
 * tagged in the browser, sealed for the group key's epoch, opened in another member's browser;
 * sorting, the search (open, done with the matches where they are, jump to location, reset),
 * renaming, deleting, what a member may not change, and a read-only drive page.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("the drive page", () => {
  const { signedIn } = browserForSuite();
  const item = (page: Page, name: string) => page.getByRole("tree", { name: "Files and folders" }).locator(`[data-drive-item="${name}"]`);
  const details = (page: Page) => page.getByRole("region", { name: "Details" });
  const dialog = (page: Page) => page.getByRole("dialog");

  async function openDrive(page: Page, group: number) {
    await gotoApp(page, `/group/${group}/page/drive`);
    await page.locator('[data-drive="ready"]').waitFor({ timeout: 60_000 });
  }

  /** Drags one row onto another with the mouse, in steps (dnd-kit starts a drag after a few pixels). */
  async function drag(page: Page, from: Locator, to: Locator) {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 12, { steps: 4 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
  }

  /** The tree item `name` sits under `parent` (the row's tree item holds its children's). */
  const under = (page: Page, parent: string, name: string) =>
    page.getByRole("treeitem").filter({ has: page.locator(`:scope > [data-drive-item="${parent}"]`) }).locator(`[data-drive-item="${name}"]`);

  async function fillForm(page: Page, name: string, tags = "") {
    await dialog(page).getByLabel("Name").fill(name);
    if (tags) await dialog(page).getByLabel("Tags").fill(tags);
    await dialog(page).getByLabel("Name").press("Enter");
    await dialog(page).waitFor({ state: "detached" });
  }

  it("makes drives and folders whose names only members' browsers read; uploads and opens files (and attaches one to a conversation), sorts, moves (drag and drop), searches, renames and deletes them", { timeout: 300_000 }, async () => {
    const tag = unique();
    const [sue, ann] = await Promise.all([createSession({ admin: true, superAdmin: true, name: `Sue ${tag}` }), createSession({ name: `Ann ${tag}` })]);
    const [s, a] = await Promise.all([sue, ann].map(signedIn));
    // The group and its keys, made in Sue's browser (the groups tests cover that screen).
    await gotoApp(s!, "/group/new");
    await s!.getByLabel("Name").fill(`Drive ${tag}`);
    await s!.getByRole("textbox", { name: "Search people" }).fill(`Ann ${tag}`);
    await s!.getByRole("listitem").filter({ hasText: `Ann ${tag}` }).first().click();
    await s!.getByRole("button", { name: "Create group" }).click();
    await s!.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
    const group = Number(/\/group\/(\d+)\//.exec(s!.url())![1]);
    await s!.locator('[data-group-key="ready"][data-group-key-epoch="0"]').waitFor({ timeout: 30_000 });

    // Ann starts the first drive from the empty page; a name is required.
    await openDrive(a!, group);
    await a!.getByRole("button", { name: "Click to start storing files..." }).click();
    await dialog(a!).getByText("The name and tags are encrypted for the group.").waitFor();
    await dialog(a!).getByRole("button", { name: "Create" }).click();
    await dialog(a!).getByText("A folder or drive needs a name.").waitFor();
    await fillForm(a!, `Projekte ${tag}`);
    await item(a!, `Projekte ${tag}`).waitFor();

    // Two folders in it, tags as typed: trimmed, blanks dropped, repeats in another case ignored.
    await item(a!, `Projekte ${tag}`).click();
    await a!.getByRole("button", { name: "Create folder" }).click();
    await dialog(a!).getByText(`Create folder in Projekte ${tag}`).waitFor();
    await fillForm(a!, `Verträge ${tag}`, " legal, , Legal,Q1 ");
    await item(a!, `Verträge ${tag}`).waitFor();
    expect(await details(a!).locator("[data-tags] > *").allInnerTexts()).toEqual(["legal", "Q1"]);
    await item(a!, `Projekte ${tag}`).click();
    await a!.getByRole("button", { name: "Create folder" }).click();
    await fillForm(a!, `Angebote ${tag}`);
    await item(a!, `Angebote ${tag}`).waitFor();

    // Title A–Z, then Z–A.
    const order = async () => (await a!.getByRole("tree", { name: "Files and folders" }).locator("[data-kind=folder]").evaluateAll((els) => els.map((e) => e.getAttribute("data-drive-item"))));
    expect(await order()).toEqual([`Angebote ${tag}`, `Verträge ${tag}`]);
    await a!.getByRole("combobox", { name: "Sort" }).click();
    await a!.getByRole("option", { name: "Title (Z–A)" }).click();
    await expect.poll(order).toEqual([`Verträge ${tag}`, `Angebote ${tag}`]);

    // A file uploaded into a folder, encrypted in this browser; opened, it comes back as it was.
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    await item(a!, `Verträge ${tag}`).click();
    await a!.locator("[data-upload-input]").first().setInputFiles({ name: `Offerte ${tag}.pdf`, mimeType: "application/pdf", buffer: bytes });
    await item(a!, `Offerte ${tag}.pdf`).waitFor({ timeout: 30_000 });
    await details(a!).getByText("2.9 KB").waitFor();
    const [saved] = await Promise.all([a!.waitForEvent("download"), details(a!).getByRole("button", { name: "Open" }).click()]);
    expect(saved.suggestedFilename()).toBe(`Offerte ${tag}.pdf`);
    expect(readFileSync((await saved.path())!).equals(bytes)).toBe(true);

    // A second drive; a folder dragged onto it moves there (and stays there after a reload).
    await a!.getByRole("button", { name: "Create drive" }).click();
    await fillForm(a!, `Archiv ${tag}`);
    await drag(a!, item(a!, `Angebote ${tag}`), item(a!, `Archiv ${tag}`));
    await under(a!, `Archiv ${tag}`, `Angebote ${tag}`).waitFor();
    await openDrive(a!, group);
    await item(a!, `Archiv ${tag}`).click();
    await under(a!, `Archiv ${tag}`, `Angebote ${tag}`).waitFor();
    await item(a!, `Projekte ${tag}`).click();

    // The server holds none of it in the clear.
    const stored = (await db().entities.driveitem.query.byGroup({ groupId: group }).go()).data;
    expect(stored.map((i) => i.kind).sort()).toEqual(["drive", "drive", "file", "folder", "folder"]);
    for (const i of stored) for (const text of ["Projekte", "Verträge", "Angebote", "Archiv", "Offerte", "legal", tag]) expect(JSON.stringify(i)).not.toContain(text);

    // Sue's browser opens them; as the group's administrator she may change Ann's folder.
    await openDrive(s!, group);
    await item(s!, `Projekte ${tag}`).click();
    await item(s!, `Verträge ${tag}`).click();
    await details(s!).getByText(`Ann ${tag}`).waitFor();
    await details(s!).getByRole("button", { name: "Rename" }).waitFor();
    // Sue's own folder: Ann, a member, may not rename or delete it.
    await s!.getByRole("button", { name: "Create folder" }).click();
    await fillForm(s!, `Sues Ordner ${tag}`);
    await a!.getByRole("button", { name: "Refresh" }).click();
    await item(a!, `Verträge ${tag}`).click();
    await item(a!, `Sues Ordner ${tag}`).click();
    await details(a!).getByText(`Sue ${tag}`).waitFor();
    expect(await details(a!).getByRole("button", { name: "Rename" }).count()).toBe(0);
    expect(await details(a!).getByRole("button", { name: "Delete" }).count()).toBe(0);
    // Into something below itself: refused with the spec's text, nothing moves.
    await drag(a!, item(a!, `Verträge ${tag}`), item(a!, `Sues Ordner ${tag}`));
    expect(await errorDialogText(a!)).toContain("You are not allowed to move this object to that folder!");
    await a!.getByRole("dialog", { name: "Error" }).getByRole("button", { name: "OK" }).click();
    await under(a!, `Projekte ${tag}`, `Verträge ${tag}`).waitFor();
    await a!.mouse.move(1270, 790);
    await expectAccessible(a!, "drive page");

    // Search: open, done with the match where it is, jump to its place, reset.
    await a!.getByRole("button", { name: "Search" }).click();
    await a!.getByRole("textbox", { name: "Search" }).fill("LEGAL");
    await a!.getByRole("textbox", { name: "Search" }).press("Enter");
    await a!.getByText("1 item matches your search.").waitFor();
    await expect.poll(async () => (await a!.getByRole("tree", { name: "Files and folders" }).locator("[data-kind=folder]").count())).toBe(1);
    await item(a!, `Verträge ${tag}`).click();
    await details(a!).getByRole("button", { name: "Jump to location" }).click();
    await item(a!, `Archiv ${tag}`).waitFor();
    await a!.getByRole("button", { name: "Search" }).waitFor();

    // Rename (a new payload under a new key); Sue sees the new name.
    await item(a!, `Verträge ${tag}`).click();
    await details(a!).getByRole("button", { name: "Rename" }).click();
    await fillForm(a!, `Verträge 2027 ${tag}`);
    await item(a!, `Verträge 2027 ${tag}`).waitFor();
    await s!.getByRole("button", { name: "Refresh" }).click();
    await item(s!, `Verträge 2027 ${tag}`).waitFor({ timeout: 30_000 });

    // Delete, after a confirmation: not a folder holding Sue's (she is its author), but Ann's own
    // empty one; a drive offers no delete.
    await details(a!).getByRole("button", { name: "Delete" }).click();
    await dialog(a!).getByRole("button", { name: "Delete" }).click();
    expect(await errorDialogText(a!)).toContain("You cannot delete this item - please contact its author.");
    await a!.getByRole("dialog", { name: "Error" }).getByRole("button", { name: "OK" }).click();
    await item(a!, `Archiv ${tag}`).click();
    await item(a!, `Angebote ${tag}`).click();
    await details(a!).getByRole("button", { name: "Delete" }).click();
    await dialog(a!).getByText("The folder and everything in it are deleted for every member of the group.").waitFor();
    await dialog(a!).getByRole("button", { name: "Delete" }).click();
    await item(a!, `Angebote ${tag}`).waitFor({ state: "detached" });
    await item(a!, `Verträge 2027 ${tag}`).waitFor();
    await item(a!, `Projekte ${tag}`).click();
    expect(await details(a!).getByRole("button", { name: "Delete" }).count()).toBe(0);

    // Made read-only for Ann, the drive shows her everything and offers nothing to change.
    const menu = await http<{ menu: { id: number; reserved: string | null }[] }>("GET", `/api/groups/${group}`, { token: sue!.api_token });
    const drivePage = menu.body.menu.find((p) => p.reserved === "drive")!;
    expect((await http("POST", `/api/pages/${drivePage.id}/permit`, { token: sue!.api_token, body: { read: [{ role: false, id: ann!.id }], use: [] } })).status).toBe(200);
    await openDrive(a!, group);
    await item(a!, `Projekte ${tag}`).click();
    await item(a!, `Verträge 2027 ${tag}`).waitFor();
    expect(await a!.getByRole("button", { name: "Create drive" }).count()).toBe(0);
    expect(await a!.getByRole("button", { name: "Create folder" }).count()).toBe(0);
    expect(await details(a!).getByRole("button", { name: "Rename" }).count()).toBe(0);
    // Its compact view too: no upload, no 'Click to start storing files...' for a root not there.
    await a!.getByText("Compact", { exact: true }).click();
    await a!.getByLabel("Column root").fill(`Projekte ${tag}`);
    await a!.getByLabel("Column root").press("Enter");
    await a!.locator("[data-drive-compact] [data-compact-place]").getByText(`Projekte ${tag}`).waitFor();
    expect(await a!.locator("[data-drive-compact] [data-upload-input]").count()).toBe(0);
    await a!.getByLabel("Column root").fill(`Nirgends ${tag}`);
    await a!.getByLabel("Column root").press("Enter");
    await a!.locator("[data-drive-compact]").getByText("Failed to find a valid drive for this column!").waitFor();
    expect(await a!.getByRole("button", { name: "Click to start storing files..." }).count()).toBe(0);

    // 'Select from drive...' in a conversation: the file is attached as it is, Sue's browser opens it.
    const { id: talk } = await startConversation(ann!, [sue!], { realKeys: true });
    await gotoApp(a!, `/conversation/${talk}`);
    await a!.getByRole("button", { name: "Select from drive..." }).click();
    await dialog(a!).getByRole("combobox", { name: "Group" }).click();
    await a!.getByRole("option", { name: `Drive ${tag}` }).click();
    const pick = (name: string) => dialog(a!).locator(`[data-pick-item="${name}"]`);
    await pick(`Projekte ${tag}`).click();
    await pick(`Verträge 2027 ${tag}`).click();
    await pick(`Offerte ${tag}.pdf`).click();
    await dialog(a!).waitFor({ state: "detached" });
    // Its chip in the message bar once the copy is made; Enter sends it.
    await a!.getByRole("list", { name: "Files to send" }).getByText(`Offerte ${tag}.pdf`).waitFor({ timeout: 30_000 });
    await messageBox(a!).fill("Die Offerte");
    await messageBox(a!).press("Enter");
    await messageList(a!).locator(`[data-attachment-name="Offerte ${tag}.pdf"]`).waitFor({ timeout: 30_000 });
    await gotoApp(s!, `/conversation/${talk}`);
    await messageList(s!).locator(`[data-attachment-name="Offerte ${tag}.pdf"]`).waitFor({ timeout: 30_000 });
    for (const p of [s!, a!]) await p.context().close();
  });
});
