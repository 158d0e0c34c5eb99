import { Invite } from "@sealwork/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, http, outboxFor, uniqueEmail } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { invite, newInviteBody } from "../support/invites";
import { createUser } from "../support/users";
import { expectAccessible } from "./accessibility";
import { errorDialogText, keyPopupState, passKeyPopup, signIn, untilKeyPopupCloses } from "./helpers";

const OWN_CODE = "invitee-own-code-5";

/** Waits for the registration email (after the invitation email) and returns its 6-digit code. */
async function verificationCode(email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const code = (await outboxFor(email, { wait: false })).map((m) => /verification code is (\d{6})/.exec(m.text)?.[1]).find(Boolean);
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no verification code for ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startRegistration(page: Page, email: string) {
  await page.goto("/login");
  await page.getByRole("radio", { name: "Email" }).check();
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

describe("invitations in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an administrator invites; the invitee registers, takes the temporary key over and recovers it later", { timeout: 240_000 }, async () => {
    const admin = await createUser({ admin: true, name: "Inviting Admin" });
    const email = uniqueEmail("browser-invitee");

    // The administrator: the Invite screen from the menu, then the created state with the code.
    const adminSide = await newVisitor(browser);
    await signIn(adminSide.page, admin.email, admin.password!);
    const nav = adminSide.page.getByRole("navigation", { name: "Main menu" });
    await nav.getByRole("link", { name: "Invite" }).click();
    await adminSide.page.waitForURL("**/invite/");
    await expect.poll(() => adminSide.page.title()).toBe("Sealwork - Invite");
    const groups = adminSide.page.getByLabel("Groups");
    expect(await groups.isDisabled()).toBe(true);
    await adminSide.page.getByText("Group assignment within invite is currently disabled", { exact: false }).waitFor();
    await adminSide.page.getByLabel("Email address").fill(email);
    await adminSide.page.getByLabel("Message").fill("See you on Monday");
    await adminSide.page.getByRole("button", { name: "Send invite" }).click();
    await adminSide.page.locator('[data-invite-state="created"]').waitFor({ timeout: 30_000 });
    const code = ((await adminSide.page.locator("[data-invitation-code]").textContent()) ?? "").trim();
    expect(code).toMatch(/^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{8}$/);
    await adminSide.page.getByText(`The invitation for ${email} was created.`).waitFor();

    // The administration page lists it as pending, expiring in 29 days.
    await nav.getByRole("link", { name: "Administration" }).click();
    const row = adminSide.page.locator(`[data-invite-row="${email}"]`);
    await row.getByText("Pending").waitFor();
    await row.getByText("expires in 29 days").waitFor();
    await row.getByText("Inviting Admin").waitFor();

    // The invitee: the email (without the code), registration, the popup's temp state.
    const [mail] = await outboxFor(email);
    expect(mail!.text).toContain("See you on Monday");
    expect(mail!.text).toContain("/login");
    expect(mail!.text).not.toContain(code);

    const invitee = await newVisitor(browser);
    await startRegistration(invitee.page, email);
    await invitee.page.getByText("Create your account").waitFor();
    const vericode = await verificationCode(email);
    await invitee.page.getByLabel("Name", { exact: true }).fill("Invited Iris");
    await invitee.page.getByLabel("Password", { exact: true }).fill("invitee-pw-123");
    await invitee.page.getByLabel("Password verification").fill("invitee-pw-123");
    await invitee.page.getByLabel("Verification code").fill(vericode);
    await invitee.page.getByRole("button", { name: "Register" }).click();

    expect(await keyPopupState(invitee.page, ["temp", "fresh", "error"])).toBe("temp");
    const dialog = invitee.page.getByRole("dialog", { name: "Secure key" });
    // A wrong code (of the right form) does not open it.
    const wrong = code.startsWith("Z") ? "YYYYYYYY" : "ZZZZZZZZ";
    await dialog.getByLabel("Invitation code").fill(wrong);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByText("Error decrypting your key.").waitFor({ timeout: 30_000 });
    await dialog.getByText("TTCD").waitFor();
    // Typed in lower case with a space: normalised.
    await dialog.getByLabel("Invitation code").fill(`${code.slice(0, 4).toLowerCase()} ${code.slice(4).toLowerCase()}`);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByRole("heading", { name: "Choose your secure code" }).waitFor({ timeout: 30_000 });
    await dialog.getByLabel("Secure code", { exact: true }).fill(OWN_CODE);
    await dialog.getByLabel("Repeat secure code").fill(OWN_CODE);
    await dialog.getByRole("button", { name: "Save my key" }).click();
    await untilKeyPopupCloses(invitee.page);
    await invitee.page.getByRole("heading", { name: "Hello, Invited Iris!" }).waitFor();
    await invitee.context.close();

    // Accepted in the list now (reload the administration page).
    await adminSide.page.reload();
    await passKeyPopup(adminSide.page);
    await adminSide.page.locator(`[data-invite-row="${email}"]`).getByText("Accepted").waitFor();
    await adminSide.context.close();

    // Later, on another device: missing → recovery with the invitee's own code.
    const later = await newVisitor(browser);
    await signIn(later.page, email, "invitee-pw-123", null);
    expect(await keyPopupState(later.page, ["missing", "temp", "fresh", "error"])).toBe("missing");
    await passKeyPopup(later.page, OWN_CODE);
    await later.page.getByRole("heading", { name: "Hello, Invited Iris!" }).waitFor();
    await later.context.close();
  });

  it("an expired invitation shows the invite_expired text", async () => {
    const admin = await adminSession();
    const { body, created } = await invite(admin.api_token, { sendEmail: false });
    await Invite.setValidUntil(created.account.id, Math.floor(Date.now() / 1000) - 60);
    const { context, page } = await newVisitor(browser);
    await startRegistration(page, body.email);
    expect(await errorDialogText(page)).toContain("This invitation has expired - please ask for a new one.");
    await context.close();
  });

  it("reads a typed O as 0 and I or L as 1 in the invitation code, as in recovery codes", async () => {
    const admin = await adminSession();
    // A code with zeros and ones, which the invitee types as the letters they look like.
    const code = "AB01CD10";
    const made = await newInviteBody({}, { code });
    const reply = await http("POST", "/api/instance/invite", { token: admin.api_token, body: made.body });
    expect(reply.status).toBe(200);
    const { context, page } = await newVisitor(browser);
    await startRegistration(page, made.body.email);
    await page.getByText("Create your account").waitFor();
    await expectAccessible(page, "registration");
    const vericode = await verificationCode(made.body.email);
    await page.getByLabel("Name", { exact: true }).fill("Lookalike Lou");
    await page.getByLabel("Password", { exact: true }).fill("lookalike-pw-123");
    await page.getByLabel("Password verification").fill("lookalike-pw-123");
    await page.getByLabel("Verification code").fill(vericode);
    await page.getByRole("button", { name: "Register" }).click();
    expect(await keyPopupState(page, ["temp", "fresh", "error"])).toBe("temp");
    await expectAccessible(page, "key popup: temp");
    const dialog = page.getByRole("dialog", { name: "Secure key" });
    await dialog.getByLabel("Invitation code").fill("abOI-cdlo");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await dialog.getByRole("heading", { name: "Choose your secure code" }).waitFor({ timeout: 30_000 });
    await context.close();
  });
});
