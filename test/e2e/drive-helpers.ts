import type { Page } from "playwright-core";
import { gotoApp } from "./helpers";

/** The drive page's parts as the browser tests reach them (spec 001 §2). */
export const driveTree = (page: Page) => page.getByRole("tree", { name: "Files and folders" });
export const driveItem = (page: Page, name: string) => driveTree(page).locator(`[data-drive-item="${name}"]`);
export const driveDetails = (page: Page) => page.getByRole("region", { name: "Details" });
/** The tree item `name` sits under `parent` (the row's tree item holds its children's). */
export const driveItemUnder = (page: Page, parent: string, name: string) =>
  page.getByRole("treeitem").filter({ has: page.locator(`:scope > [data-drive-item="${parent}"]`) }).locator(`[data-drive-item="${name}"]`);

/** The group's drive page, once every item is open. */
export async function openDrive(page: Page, group: number, code?: string) {
  await gotoApp(page, `/group/${group}/page/drive`, code);
  await page.locator('[data-drive="ready"]').waitFor({ timeout: 60_000 });
}

/** The open item form (create, rename) filled with a name and sent. */
export async function fillItemForm(page: Page, name: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Name").press("Enter");
  await dialog.waitFor({ state: "detached" });
}
