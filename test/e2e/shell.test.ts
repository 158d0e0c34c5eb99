import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, login } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { createSession, createUser } from "../support/users";
import { gotoApp, signIn, storedEntries } from "./helpers";

describe("the app shell, settings and administration in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows the not-found page for unknown routes", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    await gotoApp(page, "/no/such/page");
    await page.getByText("Requested content not found.").waitFor();
    await context.close();
  });

  it("hides administration from a regular user and refuses its route", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!);
    const nav = page.getByRole("navigation", { name: "Main menu" });
    await nav.getByRole("link", { name: "Settings" }).waitFor();
    expect(await nav.getByRole("link", { name: "Administration" }).count()).toBe(0);
    await gotoApp(page, "/instanceadmin/");
    await page.getByText("Requested content not found.").waitFor();
    await context.close();
  });

  it("changes the password, then asks to log in again", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    await gotoApp(page, "/settings/");
    const save = page.getByRole("button", { name: "Save password" });
    await page.getByLabel("Current password").fill(user.password!);
    await page.getByLabel("New password", { exact: true }).fill("changed-pw-123");
    await page.getByLabel("Confirm new password").fill("changed-pw-999");
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel("Confirm new password").fill("changed-pw-123");
    await save.click();
    await page.waitForURL("**/login");
    await page.getByText("Your password was changed - please log in again.").waitFor();
    await login(user.id, "changed-pw-123");
    await context.close();
  });

  it("lets an administrator edit another user's name, email and password", async () => {
    const admin = await createSession({ admin: true });
    const target = await createUser({ name: "Before Edit" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, admin.email!, admin.password);
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    await page.waitForURL("**/instanceadmin/");
    await page.getByRole("button", { name: "Edit Before Edit" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit user" });
    await dialog.getByLabel("Name").fill("After Edit");
    const newEmail = `edited.${Date.now()}@example.ch`;
    await dialog.getByLabel("Email").fill(newEmail);
    await dialog.getByLabel("New password").fill("admin-chosen-pw-1");
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByText("The user was saved.").waitFor();
    await page.getByRole("row", { name: new RegExp(`After Edit.*${newEmail.replace(/\./g, "\\.")}`) }).waitFor();
    const found = await http<{ id: number }>("GET", `/api/users?lookup=${encodeURIComponent(newEmail)}`);
    expect(found.body.id).toBe(target.id);
    await login(target.id, "admin-chosen-pw-1");
    await context.close();
  });

  it("collapses the side menu behind a burger on a phone", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser, { width: 400, height: 800 });
    await signIn(page, user.email, user.password!);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    const burger = page.getByRole("button", { name: "Open navigation" });
    await burger.waitFor();
    // Collapsed, the menu sits off-canvas to the left; the burger slides it in.
    const nav = page.getByRole("navigation", { name: "Main menu" });
    const offCanvas = async () => {
      const box = await nav.boundingBox();
      return !box || box.x + box.width <= 0;
    };
    expect(await offCanvas()).toBe(true);
    await burger.click();
    await expect.poll(offCanvas).toBe(false);
    await nav.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL("**/settings/");
    await context.close();
  });

  it("logs out with 'Wipe and logout', clearing local storage", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    await page.evaluate('localStorage.setItem("unrelated-cache", "x")');
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Wipe and logout" }).click();
    await page.waitForURL("**/login");
    expect(await storedEntries(page)).toEqual([]);
    await context.close();
  });
});
