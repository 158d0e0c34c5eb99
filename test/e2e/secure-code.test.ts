import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, login } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { createUser } from "../support/users";
import { keyPopupState, passKeyPopup } from "./helpers";

/**
 * Choosing a secure code (issue 11, item 9): never the login password, with a strength estimate
 * that comes with the code screen only, and fields that password managers keep apart.
 */
describe("choosing a secure code in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("refuses the login password as the secure code, and shows how strong a code is", { timeout: 120_000 }, async () => {
    const password = "Login-Passwort-2026";
    const user = await createUser({ name: "Code Chooser", password });
    const { context, page } = await newVisitor(browser);
    const chunks: string[] = [];
    page.on("request", (request) => void (request.url().includes("/assets/") && chunks.push(new URL(request.url()).pathname)));

    // The login screen: the password is current-password; the strength estimate is not loaded.
    await page.goto("/login");
    await page.getByRole("radio", { name: "Email" }).check();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByRole("button", { name: "Continue" }).click();
    const passwordField = page.getByLabel("Password", { exact: true });
    expect(await passwordField.getAttribute("autocomplete")).toBe("current-password");
    expect(await passwordField.getAttribute("name")).toBe("password");
    const beforeCodeScreen = chunks.length;
    expect(chunks.some((path) => path.includes("code-strength"))).toBe(false);
    await passwordField.fill(password);
    await page.getByRole("button", { name: "Log in" }).click();

    expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("fresh");
    const dialog = page.getByRole("dialog", { name: "Secure key" });
    const code = dialog.getByLabel("Secure code", { exact: true });
    const repeat = dialog.getByLabel("Repeat secure code");
    // Chosen codes are new-password, under names of their own.
    expect([await code.getAttribute("autocomplete"), await code.getAttribute("name")]).toEqual(["new-password", "new-secure-code"]);
    expect([await repeat.getAttribute("autocomplete"), await repeat.getAttribute("name")]).toEqual(["new-password", "new-secure-code-repeat"]);
    // The estimate came with the code screen.
    await expect.poll(() => chunks.slice(beforeCodeScreen).some((path) => path.includes("code-strength"))).toBe(true);

    // A common password that meets the rule: very weak, guessed at once.
    await code.fill("password1");
    const meter = dialog.locator("[data-code-strength]");
    await expect.poll(() => meter.getAttribute("data-code-strength"), { timeout: 30_000 }).toBe("veryWeak");
    await dialog.getByText("Strength: very weak").waitFor();
    await dialog.getByText("could guess it within a minute").waitFor();
    await dialog.getByText(/commonly used password/).waitFor();
    // A passphrase: very strong, beyond reach.
    await code.fill("violet tractor whispers under 9 lanterns");
    await expect.poll(() => meter.getAttribute("data-code-strength")).toBe("veryStrong");
    await dialog.getByText("could not guess it in any foreseeable time").waitFor();
    // Something in between says how long, at the documented rate.
    // (zxcvbn estimates about 10^8 guesses: a day at 1,000 a second.)
    await code.fill("purple42monkey");
    await expect.poll(() => meter.getAttribute("data-code-strength")).toBe("strong");
    await dialog.getByText("could guess it in about 1 day (at 1,000 guesses a second)").waitFor();

    // The login password itself is refused, though it meets the rule: nothing is registered.
    await code.fill(password);
    await repeat.fill(password);
    await dialog.getByRole("button", { name: "Create my key" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Your secure code must not be your login password" }).waitFor();
    const session = await login(user.id, password);
    expect((await http<{ keypair: unknown }>("GET", "/api/keypairs", { token: session.api_token })).body.keypair).toBeNull();

    // Another code goes through; later the unlock field is "off", under the name secure-code.
    await passKeyPopup(page, "violet tractor whispers under 9 lanterns");
    await page.getByRole("heading", { name: "Hello, Code Chooser!" }).waitFor();
    await page.reload();
    expect(await keyPopupState(page, ["unlock", "missing", "error"])).toBe("unlock");
    const unlock = page.getByRole("dialog", { name: "Secure key" }).getByLabel("Secure code", { exact: true });
    expect([await unlock.getAttribute("autocomplete"), await unlock.getAttribute("name")]).toEqual(["off", "secure-code"]);
    expect(await page.locator("[data-code-strength]").count()).toBe(0);
    await context.close();
  });
});
