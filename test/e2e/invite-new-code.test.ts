import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newVisitor } from "../support/browser";
import { invite } from "../support/invites";
import { registerInvitee } from "../support/identities";
import { createSession } from "../support/users";
import { expectAccessible } from "./accessibility";
import { keyPopupState, passKeyPopup, signIn, untilKeyPopupCloses } from "./helpers";

const OWN_CODE = "invitee-own-code-8";
const INVITEE_PASSWORD = "invitee-password-1";

/**
 * An invitee who registered but lost the invitation code before entering it: Administration
 * issues a new code (shown once); the old code no longer opens the temporary key, the new one
 * does, and the invitee takes their key over with it (docs/protocol.md §13, "A new code").
 */
describe("a new invitation code in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an administrator issues a new code; the old one fails, the new one lets the invitee in", { timeout: 300_000 }, async () => {
    const admin = await createSession({ admin: true, name: "Code Admin" });
    const { created, body, code: oldCode } = await invite(admin.api_token);
    await registerInvitee(created.account.id, body.email, INVITEE_PASSWORD);

    // Administration: the registered invitation still waits for its key, so it offers a new code.
    const adminSide = await newVisitor(browser);
    await signIn(adminSide.page, admin.email!, admin.password);
    await adminSide.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    const row = adminSide.page.locator(`[data-invite-row="${body.email}"]`);
    await row.getByText("Accepted").waitFor();
    await row.getByRole("button", { name: `New code for ${body.email}` }).click();
    const dialog = adminSide.page.getByRole("dialog", { name: `New invitation code for ${body.email}` });
    await dialog.getByText("the old code stops working at once", { exact: false }).waitFor();
    await expectAccessible(adminSide.page, "the new invitation code modal");
    await dialog.getByRole("button", { name: "Issue new code" }).click();
    const shown = dialog.locator("[data-invitation-code]");
    await shown.waitFor({ timeout: 60_000 });
    const newCode = ((await shown.textContent()) ?? "").trim();
    expect(newCode).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{8}$/);
    expect(newCode).not.toBe(oldCode);
    await adminSide.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // The invitee signs in: the old code does not open the key, the new one does.
    const invitee = await newVisitor(browser);
    await signIn(invitee.page, body.email, INVITEE_PASSWORD, null);
    expect(await keyPopupState(invitee.page, ["temp", "fresh", "error"])).toBe("temp");
    const popup = invitee.page.getByRole("dialog", { name: "Secure key" });
    await popup.getByLabel("Invitation code").fill(oldCode);
    await popup.getByRole("button", { name: "Continue" }).click();
    await popup.getByText("Error decrypting your key.").waitFor({ timeout: 30_000 });
    await popup.getByLabel("Invitation code").fill(newCode);
    await popup.getByRole("button", { name: "Continue" }).click();
    await popup.getByRole("heading", { name: "Choose your secure code" }).waitFor({ timeout: 30_000 });
    await popup.getByLabel("Secure code", { exact: true }).fill(OWN_CODE);
    await popup.getByLabel("Repeat secure code").fill(OWN_CODE);
    await popup.getByRole("button", { name: "Save my key" }).click();
    await untilKeyPopupCloses(invitee.page);
    await invitee.page.getByRole("heading", { name: /^Hello/ }).waitFor();

    // Taken over: Administration offers no new code any more.
    await adminSide.page.reload();
    await passKeyPopup(adminSide.page);
    await row.getByText("Accepted").waitFor();
    expect(await row.getByRole("button", { name: `New code for ${body.email}` }).count()).toBe(0);
    for (const side of [adminSide, invitee]) await side.context.close();
  });
});
