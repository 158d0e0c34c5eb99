import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, mailedCodes, outboxFor } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { ADMIN } from "../support/global-setup";
import { PASSWORD, createUser } from "../support/users";
import { errorDialogText, gotoApp, keyPopupState, passKeyPopup, signIn, storedEntries, storedSession } from "./helpers";

describe("login in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("first administrator signs in, sees the shell, changes name, logs out", async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto("/");
    await page.waitForURL("**/login");
    await expect.poll(() => page.title()).toBe("Sealwork - Login");

    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole("heading", { name: `Hello, ${ADMIN.name}!` }).waitFor();
    await expect.poll(() => page.title()).toBe("Sealwork - Home");
    const nav = page.getByRole("navigation", { name: "Main menu" });
    await nav.getByText("Nothing recent!").waitFor();
    await nav.getByRole("link", { name: "Administration" }).waitFor();
    // Groups: the first administrator's, or none yet (other tests on this runtime make groups with them).
    await page.getByRole("region", { name: "Groups" }).waitFor();

    await nav.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL("**/settings/");
    await expect.poll(() => page.title()).toBe("Sealwork - Settings");
    const name = page.getByLabel("Name", { exact: true });
    await expect.poll(() => name.inputValue()).toBe(ADMIN.name);
    await name.fill("Renamed Admin");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Your changes were saved.").waitFor();

    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Logout", exact: true }).click();
    await page.waitForURL("**/login");
    expect(await storedSession(page)).toBeUndefined();

    // The new name was stored: it greets us after signing in again. Then restore it.
    await signIn(page, ADMIN.email, ADMIN.password);
    // An explicit logout forgets the page it left: the next login lands on home.
    await page.getByRole("heading", { name: "Hello, Renamed Admin!" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    const session = (await storedSession(page))!;
    await http("PATCH", `/api/users/${session.id}`, { token: session.api_token, body: { name: ADMIN.name } });
    await context.close();
  });

  it("keeps the API token to this tab (memory and sessionStorage, never localStorage); a logout in one tab ends the others (issue 11, item 8)", { timeout: 120_000 }, async () => {
    const user = await createUser({ name: "Tab Keeper" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!);
    await page.getByRole("heading", { name: "Hello, Tab Keeper!" }).waitFor();
    const session = (await storedSession(page))!;
    expect(session.api_token.length).toBeGreaterThan(20);
    expect(JSON.stringify(await storedEntries(page))).not.toContain(session.api_token);

    // Another tab of the same browser does not get it: it signs in on its own.
    const other = await context.newPage();
    await other.goto("/");
    await other.waitForURL("**/login");
    await signIn(other, user.email, user.password!);
    await other.getByRole("heading", { name: "Hello, Tab Keeper!" }).waitFor();
    expect((await storedSession(other))!.api_token).not.toBe(session.api_token);

    // A reload keeps this tab signed in (the key popup asks for the code again).
    await gotoApp(page, "/");
    await page.getByRole("heading", { name: "Hello, Tab Keeper!" }).waitFor();

    // Logging out in the other tab ends this tab's session as well, and leaves no token behind.
    await other.getByRole("button", { name: "User menu" }).click();
    await other.getByRole("menuitem", { name: "Logout", exact: true }).click();
    await other.waitForURL("**/login");
    await page.waitForURL("**/login");
    expect(await storedSession(page)).toBeUndefined();
    expect(JSON.stringify(await storedEntries(page))).not.toContain("api_token");
    await context.close();
  });

  it("says 'Incorrect password' for a wrong password, and 429's text after repeated tries", async () => {
    const user = await createUser();
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, "definitely-wrong", null);
    expect(await errorDialogText(page)).toContain("Incorrect password");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Error" }).waitFor({ state: "hidden" });

    for (let i = 0; i < 5; i++) {
      await page.getByLabel("Password", { exact: true }).fill(`wrong-${i}`);
      await page.getByLabel("Password", { exact: true }).press("Enter");
      await page.getByRole("dialog", { name: "Error" }).waitFor();
      const text = await errorDialogText(page);
      await page.getByRole("button", { name: "OK" }).click();
      await page.getByRole("dialog", { name: "Error" }).waitFor({ state: "hidden" });
      if (i === 4) expect(text).toContain("You are trying too many times - please wait one minute before submitting again.");
    }
    await context.close();
  });

  it("does not recognise an unknown contact", async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    await page.getByRole("radio", { name: "Email" }).check();
    await page.getByLabel("Email address").fill("stranger@example.ch");
    await page.getByRole("button", { name: "Continue" }).click();
    expect(await errorDialogText(page)).toContain("Sorry, we do not recognize your contact details...");
    await context.close();
  });

  it("signs in by phone number", async () => {
    const phone = `+41 78 ${String(Date.now()).slice(-7)}`;
    await createUser({ phone, name: "Phone Person" });
    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    await page.getByRole("radio", { name: "Phone" }).check();
    await page.getByLabel("Phone number").fill(phone);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await passKeyPopup(page);
    await page.getByRole("heading", { name: "Hello, Phone Person!" }).waitFor();
    await context.close();
  });

  it("sets a forgotten password with a mailed code, and the account key still opens with the secure code", async () => {
    const user = await createUser({ name: "Forgetful Person" });
    // The account has its key (made in a first browser) before the password is forgotten.
    const first = await newVisitor(browser);
    await signIn(first.page, user.email, user.password!);
    await first.context.close();

    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    await page.getByRole("radio", { name: "Email" }).check();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByText("Choose a new password").waitFor();
    const [code] = await mailedCodes(user.email, /set a new password is (\d{6})/);

    await page.getByLabel("Verification code").fill(code!);
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("at least 8 characters").first().waitFor();
    await page.getByLabel("New password").fill("a-new-password-1");
    await page.getByLabel("Password verification").fill("a-new-password-1");
    await page.getByLabel("Verification code").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Set password" }).click();
    expect(await errorDialogText(page)).toContain("The verification code used was incorrect...");
    await page.getByRole("button", { name: "OK" }).click();

    await page.getByLabel("Verification code").fill(code!);
    await page.getByRole("button", { name: "Set password" }).click();
    // Signed in on a new device: the key comes from the server's backup, under the same secure code.
    expect(await keyPopupState(page, ["missing"])).toBe("missing");
    await passKeyPopup(page);
    await page.getByRole("heading", { name: "Hello, Forgetful Person!" }).waitFor();
    expect((await http("POST", `/api/users/${user.id}/login`, { body: { password: user.password } })).status).toBe(403);
    expect((await http("POST", `/api/users/${user.id}/login`, { body: { password: "a-new-password-1" } })).status).toBe(200);
    await context.close();
  });

  it("registers an invited account with the emailed code", async () => {
    const invited = await createUser({ password: null });
    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    await page.getByRole("radio", { name: "Email" }).check();
    await page.getByLabel("Email address").fill(invited.email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("Create your account").waitFor();
    const [mail] = await outboxFor(invited.email);
    const code = /\b(\d{6})\b/.exec(mail!.text)![1]!;

    await page.getByLabel("Name", { exact: true }).fill("Invited Person");
    await page.getByLabel("Password", { exact: true }).fill("invited-pw-123");
    await page.getByLabel("Password verification").fill("invited-pw-124");
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByText("The passwords do not match.").waitFor();

    await page.getByLabel("Password verification").fill("invited-pw-123");
    await page.getByLabel("Verification code").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Register" }).click();
    expect(await errorDialogText(page)).toContain("The verification code used was incorrect...");
    await page.getByRole("button", { name: "OK" }).click();

    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Register" }).click();
    await passKeyPopup(page);
    await page.getByRole("heading", { name: "Hello, Invited Person!" }).waitFor();
    await context.close();
  });

  it("formats a pickup code and reports an unknown one", async () => {
    const { context, page } = await newVisitor(browser);
    await page.goto("/login");
    await page.getByRole("radio", { name: "Pickup" }).check();
    const field = page.getByLabel("Pickup code");
    await field.pressSequentially("abab a12121");
    await expect.poll(() => field.inputValue()).toBe("ABABA-12121");
    await page.getByRole("button", { name: "Continue" }).click();
    expect(await errorDialogText(page)).toContain("This pickup code is incorrect or has expired...");
    await context.close();
  });
});
