import { db } from "@sealwork/core/db/service";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { browserForSuite } from "./conversation-helpers";
import { gotoApp } from "./helpers";

/**
 * An item's permissions in the browser (issue 13; spec 001 §2 Permission editor, §6): the author
 * restricts a folder to one member, whose browser alone (with the author's and the group
 * administrator's) gets its key; the padlock; the lock notice for someone who may not change it.
 */

const unique = () => Math.random().toString(36).slice(2, 7);

describe("drive item permissions", () => {
  const { signedIn } = browserForSuite();
  const item = (page: Page, name: string) => page.getByRole("tree", { name: "Files and folders" }).locator(`[data-drive-item="${name}"]`);
  const details = (page: Page) => page.getByRole("region", { name: "Details" });
  const dialog = (page: Page) => page.getByRole("dialog");

  async function openDrive(page: Page, group: number) {
    await gotoApp(page, `/group/${group}/page/drive`);
    await page.locator('[data-drive="ready"]').waitFor({ timeout: 60_000 });
  }

  async function fillForm(page: Page, name: string) {
    await dialog(page).getByLabel("Name").fill(name);
    await dialog(page).getByLabel("Name").press("Enter");
    await dialog(page).waitFor({ state: "detached" });
  }

  it("the author restricts a folder to a user: a padlock; the named user opens it, another member does not see it, a non-author sees the lock notice; a new holder of a named role gets the key from the author's next visit, and a role taken on the members page takes the key with it at once", { timeout: 300_000 }, async () => {
    const tag = unique();
    const [sue, ann, ben, cid] = await Promise.all([
      createSession({ admin: true, superAdmin: true, name: `Sue ${tag}` }),
      createSession({ name: `Ann ${tag}` }),
      createSession({ name: `Ben ${tag}` }),
      createSession({ name: `Cid ${tag}` }),
    ]);
    const [s, a, b, c] = await Promise.all([sue, ann, ben, cid].map(signedIn));
    await gotoApp(s!, "/group/new");
    await s!.getByLabel("Name").fill(`Perm ${tag}`);
    for (const name of [`Ann ${tag}`, `Ben ${tag}`, `Cid ${tag}`]) {
      await s!.getByRole("textbox", { name: "Search people" }).fill(name);
      await s!.getByRole("listitem").filter({ hasText: name }).first().click();
    }
    await s!.getByRole("button", { name: "Create group" }).click();
    await s!.waitForURL(/\/group\/\d+\/page\/members$/, { timeout: 60_000 });
    const group = Number(/\/group\/(\d+)\//.exec(s!.url())![1]);
    await s!.locator('[data-group-key="ready"][data-group-key-epoch="0"]').waitFor({ timeout: 30_000 });

    // A role of the group, held by Ben for now.
    const role = await http<{ id: number }>("POST", "/api/roles", { token: sue!.api_token, body: { name: `Editors ${tag}`, group_id: group } });
    expect((await http("POST", `/api/roles/${role.body.id}/assign`, { token: sue!.api_token, body: { user_id: ben!.id } })).status).toBe(200);

    // Ann: a drive with a folder, restricted to Ben and the role.
    await openDrive(a!, group);
    await a!.getByRole("button", { name: "Click to start storing files..." }).click();
    await fillForm(a!, `Team ${tag}`);
    await item(a!, `Team ${tag}`).click();
    await a!.getByRole("button", { name: "Create folder" }).click();
    await fillForm(a!, `Geheim ${tag}`);
    await item(a!, `Geheim ${tag}`).click();
    await details(a!).getByRole("button", { name: "Permissions" }).click();
    const editor = dialog(a!);
    await editor.getByRole("region", { name: "Read" }).waitFor();
    await editor.getByRole("region", { name: "Change" }).waitFor();
    await editor.getByRole("region", { name: "Use" }).waitFor();
    await editor.getByLabel("Add to Read").click();
    await a!.getByRole("option", { name: `Ben ${tag}` }).click();
    await editor.getByRole("region", { name: "Read" }).getByText(`Ben ${tag}`).waitFor();
    await editor.getByLabel("Add to Read").click();
    await a!.getByRole("option", { name: `Editors ${tag}` }).click();
    await editor.getByRole("region", { name: "Read" }).getByText(`Role: Editors ${tag}`).waitFor();
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.waitFor({ state: "detached", timeout: 30_000 });
    await item(a!, `Geheim ${tag}`).locator("[data-padlock]").waitFor({ timeout: 30_000 });
    await details(a!).locator("[data-padlock]").waitFor();

    // The stored item has no key under the group key; grants for Ann, Ben and Sue only.
    const stored = (await db().entities.driveitem.query.byGroup({ groupId: group }).go()).data.find((i) => i.kind === "folder")!;
    expect(stored.dockey).toBeUndefined();
    expect([...stored.grantees].sort((x, y) => x - y)).toEqual([sue!.id, ann!.id, ben!.id].sort((x, y) => x - y));

    // Ben sees and opens it (its name decrypts with his grant); the padlock shows.
    await openDrive(b!, group);
    await item(b!, `Team ${tag}`).click();
    await item(b!, `Geheim ${tag}`).click();
    await item(b!, `Geheim ${tag}`).locator("[data-padlock]").waitFor();
    // Not its author: the lock notice, no saving.
    await details(b!).getByRole("button", { name: "Permissions" }).click();
    await dialog(b!).getByText("Contact the author to request permission").waitFor();
    expect(await dialog(b!).getByRole("button", { name: "Save" }).count()).toBe(0);
    expect(await details(b!).getByRole("button", { name: "Rename" }).count()).toBe(0);
    await dialog(b!).getByRole("button", { name: "Close" }).first().click();

    // Cid does not see it at all.
    await openDrive(c!, group);
    await item(c!, `Team ${tag}`).click();
    await c!.getByText("Invalid item").waitFor({ state: "detached" });
    expect(await item(c!, `Geheim ${tag}`).count()).toBe(0);
    expect(await c!.locator("[data-drive-item]").count()).toBe(1);

    // Cid gets the role: the server shows him the folder, but he holds no key of it yet; the next
    // time Ann's browser opens the drive it grants the key to him, and his browser opens it.
    expect((await http("POST", `/api/roles/${role.body.id}/assign`, { token: sue!.api_token, body: { user_id: cid!.id } })).status).toBe(200);
    await openDrive(c!, group);
    await item(c!, `Team ${tag}`).click();
    await c!.getByRole("tree", { name: "Files and folders" }).getByText("Invalid item").waitFor();
    await openDrive(a!, group);
    await expect.poll(async () => (await db().entities.driveitem.query.byGroup({ groupId: group }).go()).data.find((i) => i.kind === "folder")!.grantees.includes(cid!.id), { timeout: 30_000 }).toBe(true);
    await openDrive(c!, group);
    await item(c!, `Team ${tag}`).click();
    await item(c!, `Geheim ${tag}`).waitFor();

    // Renamed by Ann: the new name under a new key, granted to the readers again.
    await item(a!, `Team ${tag}`).click();
    await item(a!, `Geheim ${tag}`).click();
    await details(a!).getByRole("button", { name: "Rename" }).click();
    // A restricted item's name is sealed for its readers, not for the group: the form says so.
    await dialog(a!).getByText("The name and tags are encrypted for this item's readers only.").waitFor();
    expect(await dialog(a!).getByText("The name and tags are encrypted for the group.").count()).toBe(0);
    await fillForm(a!, `Geheim 2 ${tag}`);
    await item(a!, `Geheim 2 ${tag}`).waitFor({ timeout: 30_000 });
    await openDrive(b!, group);
    await item(b!, `Team ${tag}`).click();
    await item(b!, `Geheim 2 ${tag}`).waitFor();

    // Sue takes the role from Cid on the members page: her browser grants the folder's key again
    // at once, without Cid (nobody else has a browser open, nobody visits the drive).
    for (const p of [a!, b!, c!]) await p.context().close();
    const folderGrantees = async () => (await db().entities.driveitem.query.byGroup({ groupId: group }).go()).data.find((i) => i.kind === "folder")!.grantees;
    expect(await folderGrantees()).toContain(cid!.id);
    await gotoApp(s!, `/group/${group}/page/members`);
    await s!.locator(`[data-member="${cid!.id}"]`).getByRole("button", { name: `Take the role Editors ${tag} away` }).click();
    await expect.poll(folderGrantees, { timeout: 60_000 }).not.toContain(cid!.id);
    expect(await folderGrantees()).toContain(ben!.id);
    await s!.context().close();
  });
});
