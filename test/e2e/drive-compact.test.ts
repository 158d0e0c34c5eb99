import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startConversation } from "../support/conversations";
import { png } from "../support/png";
import { createSession } from "../support/users";
import { groupMadeIn } from "./card-pages";
import { browserForSuite } from "./conversation-helpers";
import { driveDetails, driveItem, driveItemUnder, fillItemForm, openDrive } from "./drive-helpers";
import { gotoApp, sessionEntries, storedEntries } from "./helpers";

/**
 * The drive's remaining parts in the browser (issue 13; spec 001 §2, §4): image thumbnails
 * decrypted in the page (details and row), 'Move to…' (the keyboard's move) that persists, the
 * compact view in 'Select from drive...' (select mode, popover) and the copy's busy state.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("the drive's thumbnails, keyboard moves and compact mode", () => {
  const { signedIn } = browserForSuite();
  const dialog = (page: Page) => page.getByRole("dialog");
  const [item, details, under, fillForm] = [driveItem, driveDetails, driveItemUnder, fillItemForm];

  /** A group made in Ann's browser (its keys too), with one drive holding one folder. */
  async function groupWithDrive(a: Page, tag: string) {
    const group = await groupMadeIn(a, `Mini ${tag}`, []);
    await openDrive(a, group);
    await a.getByRole("button", { name: "Click to start storing files..." }).click();
    await fillForm(a, `Fotos ${tag}`);
    await item(a, `Fotos ${tag}`).click();
    await a.getByRole("button", { name: "Create folder" }).click();
    await fillForm(a, `Urlaub ${tag}`);
    await item(a, `Urlaub ${tag}`).waitFor();
    return group;
  }

  it("shows an image's decrypted thumbnail in its row and details; 'Move to…' moves a file with the keyboard alone, and the move stays after a reload", { timeout: 300_000 }, async () => {
    const tag = unique();
    const ann = await createSession({ admin: true, superAdmin: true, name: `Ann ${tag}` });
    const a = (await signedIn(ann))!;
    const group = await groupWithDrive(a, tag);

    // An image uploaded into the drive: its 200 px thumbnail, decrypted here, in the details; a small one in its row.
    await item(a, `Fotos ${tag}`).click();
    await a.locator("[data-upload-input]").first().setInputFiles({ name: `see ${tag}.png`, mimeType: "image/png", buffer: png(640, 480) });
    await item(a, `see ${tag}.png`).waitFor({ timeout: 30_000 });
    const big = details(a).locator('[data-thumb-state="thumb"] img');
    await big.waitFor({ timeout: 30_000 });
    expect(await big.getAttribute("alt")).toBe(`see ${tag}.png`);
    expect(await big.evaluate((img) => [(img as unknown as { naturalWidth: number }).naturalWidth, (img as unknown as { naturalHeight: number }).naturalHeight])).toEqual([200, 150]);
    await item(a, `see ${tag}.png`).locator('[data-thumb-state="thumb"][data-thumb-size="20"] img').waitFor({ timeout: 30_000 });

    // 'Move to…' with the keyboard: the button, the chooser (its own parent is not offered), Enter.
    const move = details(a).getByRole("button", { name: "Move to…" });
    await move.focus();
    await a.keyboard.press("Enter");
    const into = dialog(a).getByRole("combobox", { name: "Into" });
    await into.waitFor();
    await into.focus();
    await a.keyboard.press("ArrowDown");
    expect(await a.getByRole("listbox").getByRole("option").allInnerTexts()).toEqual([`Fotos ${tag} / Urlaub ${tag}`]);
    await a.keyboard.press("Enter");
    await dialog(a).getByRole("button", { name: "Move" }).focus();
    await a.keyboard.press("Enter");
    await dialog(a).waitFor({ state: "detached" });
    await under(a, `Urlaub ${tag}`, `see ${tag}.png`).waitFor();
    await openDrive(a, group);
    await item(a, `Fotos ${tag}`).click();
    await item(a, `Urlaub ${tag}`).click();
    await under(a, `Urlaub ${tag}`, `see ${tag}.png`).waitFor();
    await a.context().close();
  });

  it("'Select from drive...' opens the compact view in select mode: a folder is refused, a file is picked; its popover offers what one may do; the copy shows it is busy and cannot start twice", { timeout: 300_000 }, async () => {
    const tag = unique();
    const [ann, ben] = await Promise.all([createSession({ admin: true, superAdmin: true, name: `Ann ${tag}` }), createSession({ name: `Ben ${tag}` })]);
    // Ben's browser makes his keys (a conversation with real keys needs them).
    const [pa, pb] = await Promise.all([ann, ben].map(signedIn));
    const [a, b] = [pa!, pb!];
    await groupWithDrive(a, tag);
    await item(a, `Urlaub ${tag}`).click();
    await a.locator("[data-upload-input]").first().setInputFiles({ name: `note ${tag}.txt`, mimeType: "text/plain", buffer: Buffer.from("Hallo") });
    await item(a, `note ${tag}.txt`).waitFor({ timeout: 30_000 });

    const { id: talk } = await startConversation(ann, [ben], { realKeys: true });
    await gotoApp(a, `/conversation/${talk}`);
    await a.getByRole("button", { name: "Select from drive..." }).click();
    await dialog(a).getByRole("combobox", { name: "Group" }).click();
    await a.getByRole("option", { name: `Mini ${tag}` }).click();
    const pick = (name: string) => dialog(a).locator(`[data-pick-item="${name}"]`);
    await pick(`Fotos ${tag}`).click();
    // A folder's Select is refused with a clear text; its name opens it.
    await dialog(a).getByRole("button", { name: `Select Urlaub ${tag}` }).click();
    await dialog(a).getByRole("alert").getByText(`Urlaub ${tag} is a folder: only a file can be selected.`).waitFor();
    await pick(`Urlaub ${tag}`).click();
    await dialog(a).locator("[data-compact-place]").getByText(`Urlaub ${tag}`).waitFor();
    // The context popover: what the author may do with her file.
    await dialog(a).getByRole("button", { name: `Actions for note ${tag}.txt` }).click();
    expect(await a.getByRole("menu").getByRole("menuitem").allInnerTexts()).toEqual(["Open", "Rename", "Permissions", "Delete"]);
    await a.keyboard.press("Escape");
    await a.getByRole("menu").waitFor({ state: "detached" });

    // The copy is held at the server's door: busy, and 'Select from drive...' cannot start another.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await a.route("**/attachments/from-drive", async (route) => {
      await held;
      await route.continue();
    });
    await dialog(a).getByRole("button", { name: `Select note ${tag}.txt` }).click();
    await dialog(a).waitFor({ state: "detached" });
    await a.getByTestId("drive-copy").getByText(`Copying note ${tag}.txt from the drive…`).waitFor();
    expect(await a.getByRole("button", { name: "Select from drive..." }).isDisabled()).toBe(true);
    release();
    await a.getByTestId("drive-copy").waitFor({ state: "detached", timeout: 30_000 });
    await a.getByText(`note ${tag}.txt`).first().waitFor();
    expect(await a.getByRole("button", { name: "Select from drive..." }).isDisabled()).toBe(false);
    for (const p of [a, b]) await p.context().close();
  });

  it("the drive page's compact view: a root by name ('Click to start storing files...' makes it, files upload into it), an @@prefix gathers items wherever they are, Escape drops a half-typed root, view and root stay for coming back, no root shows every drive", { timeout: 300_000 }, async () => {
    const tag = unique();
    const ann = await createSession({ admin: true, superAdmin: true, name: `Ann ${tag}` });
    const a = (await signedIn(ann))!;
    await groupWithDrive(a, tag);
    const column = a.locator("[data-drive-compact]");
    const place = column.locator("[data-compact-place]");
    const shown = async () => (await column.locator("[data-compact-item]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-compact-item")))).sort();
    const setRoot = async (text: string) => {
      await a.getByLabel("Column root").fill(text);
      await a.getByLabel("Column root").press("Enter");
    };

    await a.getByText("Compact", { exact: true }).click();
    // No root: every drive; the tree's sort and search are not on the compact view's toolbar.
    await place.getByText("All drives").waitFor();
    expect(await shown()).toEqual([`Fotos ${tag}`]);
    expect(await a.getByRole("button", { name: "Search" }).count()).toBe(0);

    // A root that does not exist yet: 'Click to start storing files...' makes a drive of its name.
    await setRoot(`  Archiv ${tag} `);
    await column.getByRole("button", { name: "Click to start storing files..." }).click();
    expect(await dialog(a).getByLabel("Name").inputValue()).toBe(`Archiv ${tag}`);
    await dialog(a).getByLabel("Name").press("Enter");
    await dialog(a).waitFor({ state: "detached" });
    await place.getByText(`Archiv ${tag}`).waitFor({ timeout: 30_000 });
    await column.getByText("Nothing here yet.").waitFor();
    await column.locator("[data-upload-input]").setInputFiles({ name: `Urlaub Kosten ${tag}.txt`, mimeType: "text/plain", buffer: Buffer.from("Hallo") });
    await column.locator(`[data-compact-item="Urlaub Kosten ${tag}.txt"]`).waitFor({ timeout: 30_000 });

    // "@@Urlaub": the folder in one drive and the file in the other, side by side.
    await setRoot("@@Urlaub");
    await place.getByText("Items starting with “Urlaub”").waitFor();
    expect(await shown()).toEqual([`Urlaub Kosten ${tag}.txt`, `Urlaub ${tag}`].sort());
    // A folder's name: its contents, and back to the root's own list.
    await column.locator(`[data-pick-item="Urlaub ${tag}"]`).click();
    await place.getByText(`Urlaub ${tag}`).waitFor();
    await column.getByRole("button", { name: "← Back" }).click();
    await place.getByText("Items starting with “Urlaub”").waitFor();

    // Escape takes back what was typed and not shown; an empty root is every drive again.
    await a.getByLabel("Column root").fill("half");
    await a.getByLabel("Column root").press("Escape");
    expect(await a.getByLabel("Column root").inputValue()).toBe("@@Urlaub");
    // The view and its root stay for coming back to the page (in memory, not across a reload).
    const pages = a.getByRole("navigation", { name: "Main menu" }).getByRole("region", { name: `Pages of Mini ${tag}` });
    await pages.getByRole("link", { name: "Members" }).click();
    await column.waitFor({ state: "detached" });
    await pages.getByRole("link", { name: "Drive" }).click();
    await place.getByText("Items starting with “Urlaub”").waitFor();
    expect(await a.getByLabel("Column root").inputValue()).toBe("@@Urlaub");
    expect(await shown()).toEqual([`Urlaub Kosten ${tag}.txt`, `Urlaub ${tag}`].sort());
    // Kept in memory only: no name went into the browser's storage.
    expect(JSON.stringify([await storedEntries(a), await sessionEntries(a)])).not.toContain("Urlaub");
    await setRoot("");
    await place.getByText("All drives").waitFor();
    expect(await shown()).toEqual([`Archiv ${tag}`, `Fotos ${tag}`]);

    // The tree again, with the drive the compact view made.
    await a.getByText("Tree", { exact: true }).click();
    await item(a, `Archiv ${tag}`).waitFor();
    await a.context().close();
  });
});
