import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newVisitor } from "../support/browser";
import { createSession, createUser } from "../support/users";
import { expectAccessible } from "./accessibility";
import { gotoApp, keyPopupState, passKeyPopup, signIn } from "./helpers";

/**
 * The automated accessibility check (axe-core, see accessibility.ts) over every screen a member
 * and an administrator reach, in both languages and on a phone. The screens that take a story to
 * reach (a pickup's guest, the invitation's temporary key, a damaged link, a conversation with
 * messages and attachments, an instance with features off) are checked in their own tests.
 */
describe("accessibility of every screen", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The app's screens by address, each with the level-1 heading that says it has loaded. */
  const SCREENS: [path: string, heading: string | RegExp][] = [
    ["/", /^Hello, /],
    ["/conversation/list", "Messages"],
    ["/conversation/new", "New conversation"],
    ["/pickup/new", "New pickup"],
    ["/panel-left/", "Menu"],
    ["/panel-right/", "Conversation details"],
    ["/settings/", "Settings"],
    ["/settings/totp", "Two Factor Authentication Setup"],
    ["/instanceadmin/", "Administration"],
    ["/invite/", "Invite a user"],
    ["/about/", "About this app"],
    ["/no/such/page", "Not found"],
  ];

  const heading = (page: Page, name: string | RegExp) => page.locator("main").getByRole("heading", { level: 1, name });

  it("the login screen in each mode and step, with a refused password and its error dialog", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    for (const mode of ["Email", "Phone", "Pickup"]) {
      await page.getByRole("radio", { name: mode }).check();
      await expectAccessible(page, `login, ${mode.toLowerCase()}`);
    }
    await page.getByRole("radio", { name: "Email" }).check();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByRole("button", { name: "Continue" }).click();
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("not-the-password");
    await expectAccessible(page, "login, password");
    await page.getByRole("button", { name: "Log in" }).click();

    // The error dialog: named by its title, with a close button that says what it does.
    const dialog = page.getByRole("dialog", { name: "Error" });
    await dialog.getByText("Incorrect password").waitFor();
    await dialog.getByRole("button", { name: "Close", exact: true }).waitFor();
    await expectAccessible(page, "login, the error dialog");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    // The refused password is marked invalid for assistive technology, until it is changed.
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page, "login, a refused password");
    await password.fill("another-try");
    expect(await password.getAttribute("aria-invalid")).toBeNull();
    // The forgotten-password step.
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByText("Choose a new password").waitFor();
    await expectAccessible(page, "login, a forgotten password");
    await context.close();
  });

  it("every signed-in screen of an administrator, the key popup and the menus", { timeout: 180_000 }, async () => {
    const admin = await createSession({ admin: true, name: "Axe Admin" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, admin.email!, admin.password, null);
    expect(await keyPopupState(page, ["fresh"])).toBe("fresh");
    await expectAccessible(page, "key popup: fresh");
    await passKeyPopup(page);
    await heading(page, /^Hello, /).waitFor();

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Administration" }).waitFor();
    await expectAccessible(page, "the user menu");
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("menuitem", { name: "New pickup" }).waitFor();
    await expectAccessible(page, "home, the plus menu");
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    await page.getByRole("button", { name: /^Conversations/ }).click();
    await page.getByRole("link", { name: "All Conversations" }).last().waitFor();
    await expectAccessible(page, "the conversations popover");

    for (const [index, [path, name]] of SCREENS.entries()) {
      await page.goto(path);
      // A page loaded afresh asks for the secure code again: checked once, then passed.
      if (index === 0) {
        expect(await keyPopupState(page, ["unlock"])).toBe("unlock");
        await expectAccessible(page, "key popup: unlock");
      }
      await passKeyPopup(page);
      await heading(page, name).waitFor();
      await expectAccessible(page, path);
    }

    // The states behind a click: two-factor setup with its QR code, editing a user.
    await gotoApp(page, "/settings/totp");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await page.getByRole("img", { name: /QR/ }).waitFor();
    await expectAccessible(page, "two-factor setup");
    await gotoApp(page, "/instanceadmin/");
    await page.getByRole("button", { name: "Edit Axe Admin" }).click();
    await page.getByRole("dialog", { name: "Edit user" }).waitFor();
    await expectAccessible(page, "administration, editing a user");
    await context.close();
  });

  it("in German, and on a phone with the menu open", { timeout: 120_000 }, async () => {
    const user = await createSession({ name: "Axe Person" });
    const { context, page } = await newVisitor(browser, { width: 400, height: 800 });
    await signIn(page, user.email!, user.password);
    await heading(page, /^Hello, /).waitFor();
    await page.getByRole("button", { name: "Open navigation" }).click();
    const nav = page.getByRole("navigation", { name: "Main menu" });
    await nav.getByRole("link", { name: "Settings" }).waitFor();
    await expectAccessible(page, "phone, the menu open");
    await nav.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Language").selectOption("de");
    await heading(page, "Einstellungen").waitFor();
    expect(await page.evaluate<string>("document.documentElement.lang")).toBe("de");
    await expectAccessible(page, "phone, settings in German");
    await page.getByRole("link", { name: "Zur Startseite" }).click();
    await heading(page, /^Hallo, /).waitFor();
    await expectAccessible(page, "phone, home in German");
    await context.close();
  });
});
