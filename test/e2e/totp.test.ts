import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { awayFromStepEdge, codeAt, currentStep, enableTotp, nextCode } from "../support/totp";
import { createSession, createUser } from "../support/users";
import { errorDialogText, gotoApp, passKeyPopup, signIn } from "./helpers";

/** Email and password on the login screen, without pressing Log in (the 2FA field comes next). */
async function enterPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByRole("radio", { name: "Email" }).check();
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(password);
}

async function logout(page: Page): Promise<void> {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Logout", exact: true }).click();
  await page.waitForURL("**/login");
}

async function closeErrorDialog(page: Page): Promise<void> {
  await page.getByRole("dialog", { name: "Error" }).getByRole("button", { name: "OK" }).click();
  await page.getByRole("dialog", { name: "Error" }).waitFor({ state: "hidden" });
}

/** A 6-digit code that the server does not accept now. */
function wrongCode(secret: string): string {
  const now = currentStep();
  const accepted = new Set([now - 1, now, now + 1, now + 2].map((s) => codeAt(secret, s)));
  return ["123456", "654321", "111111"].find((c) => !accepted.has(c))!;
}

describe("two-factor login in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a user sets 2FA up, logs in with a code and with a recovery code; the administrator switches it off", async () => {
    const name = `Totp Person ${Date.now().toString(36)}`;
    const user = await createUser({ name });
    const admin = await createUser({ admin: true, name: "Totp Admin" });
    const { context, page } = await newVisitor(browser);

    await signIn(page, user.email, user.password!);
    await page.getByRole("heading", { name: `Hello, ${name}!` }).waitFor();
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Settings" }).click();
    await page.getByText("Two-factor authentication is not enabled.").waitFor();
    await page.getByRole("link", { name: "Two-factor authentication setup" }).click();
    await page.waitForURL("**/settings/totp");
    await expect.poll(() => page.title()).toBe("Sealwork - Two Factor Authentication Setup");

    // Setup: the QR code and the secret; a wrong code shakes and says so, a right one finishes.
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    expect(await page.getByRole("img", { name: "QR code for your authenticator app" }).getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByLabel("Secret").inputValue()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const setupCode = page.getByLabel("6-digit code");
    await setupCode.fill(wrongCode(secret));
    expect(await errorDialogText(page)).toContain("Incorrect code - please try again.");
    await closeErrorDialog(page);
    expect(await setupCode.inputValue()).toBe("");

    await awayFromStepEdge();
    let lastStep = currentStep();
    // Typing the sixth digit submits the code.
    await setupCode.pressSequentially(codeAt(secret, lastStep));
    const list = page.getByRole("list", { name: "Recovery codes" });
    await list.waitFor();
    await page.getByText("Two-factor authentication is now enabled.").waitFor();
    const recovery = (await list.getByRole("listitem").allTextContents()).map((text) => text.trim());
    expect(recovery).toHaveLength(10);
    for (const code of recovery) expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(await page.getByRole("link", { name: "Download codes" }).getAttribute("download")).toBe("recovery-codes.txt");
    await page.getByRole("button", { name: "Copy codes" }).waitFor();
    await page.getByRole("button", { name: "Finish" }).click();
    await page.waitForURL(/\/settings\/$/);
    await page.getByText("Two-factor authentication is enabled.").waitFor();
    await logout(page);

    // Password and the next code, which goes by itself at the sixth digit.
    await enterPassword(page, user.email, user.password!);
    const next = await nextCode(secret, lastStep);
    lastStep = next.step;
    await page.getByLabel("2FA code").pressSequentially(next.code);
    await passKeyPopup(page);
    await page.getByRole("heading", { name: `Hello, ${name}!` }).waitFor();
    await logout(page);

    // A recovery code, typed in lower case without its hyphen: accepted once, with a warning.
    const rescue = recovery[0]!.replace("-", "").toLowerCase();
    await enterPassword(page, user.email, user.password!);
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(rescue);
    await page.getByRole("button", { name: "Log in" }).click();
    await passKeyPopup(page);
    await page.getByRole("heading", { name: `Hello, ${name}!` }).waitFor();
    const warning = page.getByRole("alert").filter({ hasText: "You logged in with a 2FA recovery code." });
    await warning.waitFor();
    // The warning stays until it is dismissed (it sits over the user menu).
    await warning.getByRole("button").click();
    await warning.waitFor({ state: "detached" });
    await logout(page);

    await enterPassword(page, user.email, user.password!);
    await page.getByRole("button", { name: "Use a recovery code" }).click();
    await page.getByLabel("Recovery code").fill(rescue);
    await page.getByRole("button", { name: "Log in" }).click();
    expect(await errorDialogText(page)).toContain("Incorrect password or 2FA code");
    await context.close();

    // The administrator switches it off; the password alone is enough again.
    const adminVisit = await newVisitor(browser);
    await signIn(adminVisit.page, admin.email, admin.password!);
    await adminVisit.page.getByRole("heading", { name: "Hello, Totp Admin!" }).waitFor();
    await adminVisit.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    const switchOff = adminVisit.page.getByRole("button", { name: `Switch off 2FA for ${name}` });
    await switchOff.click();
    const confirm = adminVisit.page.getByRole("dialog", { name: "Switch off two-factor authentication" });
    await confirm.getByText(`Switch off two-factor authentication for ${name}?`).waitFor();
    await confirm.getByRole("button", { name: "Switch off 2FA" }).click();
    await adminVisit.page.getByText("Two-factor authentication was switched off.").waitFor();
    await switchOff.waitFor({ state: "detached" });
    await adminVisit.context.close();

    const again = await newVisitor(browser);
    await signIn(again.page, user.email, user.password!);
    await again.page.getByRole("heading", { name: `Hello, ${name}!` }).waitFor();
    await again.context.close();
  });

  it("a user switches 2FA off on /settings/totp; a wrong code returns to the code field", async () => {
    const me = await createSession({ name: "Totp Leaver" });
    const { secret, recovery, lastStep } = await enableTotp(me.api_token);
    const { context, page } = await newVisitor(browser);
    await enterPassword(page, me.email!, me.password);
    await page.getByLabel("2FA code").pressSequentially((await nextCode(secret, lastStep)).code);
    await passKeyPopup(page);
    await page.getByRole("heading", { name: "Hello, Totp Leaver!" }).waitFor();

    await gotoApp(page, "/settings/totp");
    await page.getByText("Two-factor authentication is enabled.").waitFor();
    await page.getByRole("button", { name: "Disable two-factor authentication" }).click();
    const field = page.getByLabel("2FA code or recovery code");
    await field.pressSequentially(wrongCode(secret));
    expect(await errorDialogText(page)).toContain("Incorrect code - please try again.");
    await closeErrorDialog(page);
    expect(await field.inputValue()).toBe("");

    await field.fill(recovery[5]!);
    await page.getByRole("button", { name: "Disable", exact: true }).click();
    await page.getByText("Two-factor authentication is now disabled.").waitFor();
    await page.getByRole("button", { name: "Finish" }).click();
    await page.waitForURL(/\/settings\/$/);
    await page.getByText("Two-factor authentication is not enabled.").waitFor();
    const status = await http<{ totp_enabled: boolean }>("GET", `/api/users?lookup=%23${me.id}`, { token: me.api_token });
    expect(status.body.totp_enabled).toBe(false);
    await context.close();
  });
});
