import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor } from "../support/browser";
import { createUser } from "../support/users";
import { errorDialogText, signIn, storedSession } from "./helpers";

describe("administration in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an administrator disables an account: its open session stops at once and login is refused; enabled again, it logs in", async () => {
    const admin = await createUser({ admin: true, name: "Disabling Admin" });
    const user = await createUser({ name: "Disabled Person" });
    const member = await newVisitor(browser);
    await signIn(member.page, user.email, user.password!);
    await member.page.getByRole("heading", { name: "Hello, Disabled Person!" }).waitFor();
    const token = (await storedSession(member.page))!.api_token;

    const { context, page } = await newVisitor(browser);
    await signIn(page, admin.email, admin.password!);
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).click();
    // Not offered for oneself.
    await page.getByRole("button", { name: "Edit Disabling Admin" }).first().waitFor();
    expect(await page.getByRole("button", { name: "Disable the account of Disabling Admin" }).count()).toBe(0);
    await page.getByRole("button", { name: "Disable the account of Disabled Person" }).click();
    const confirm = page.getByRole("dialog", { name: "Disable account" });
    await confirm.getByText("Disable the account of Disabled Person?").waitFor();
    await confirm.getByRole("button", { name: "Disable", exact: true }).click();
    await page.getByText("The account of Disabled Person was disabled.").waitFor();
    await page.getByRole("button", { name: "Enable the account of Disabled Person" }).waitFor();

    // The token the member holds stops at once.
    expect((await http("GET", `/api/users/${user.id}`, { token })).status).toBe(401);
    const again = await newVisitor(browser);
    await signIn(again.page, user.email, user.password!, null);
    expect(await errorDialogText(again.page)).toContain("This account has been disabled - please contact your administrator.");

    await page.getByRole("button", { name: "Enable the account of Disabled Person" }).click();
    await page.getByRole("dialog", { name: "Enable account" }).getByRole("button", { name: "Enable", exact: true }).click();
    await page.getByText("The account of Disabled Person was enabled.").waitFor();
    const back = await newVisitor(browser);
    await signIn(back.page, user.email, user.password!);
    await back.page.getByRole("heading", { name: "Hello, Disabled Person!" }).waitFor();
    for (const visit of [member, again, back, { context }]) await visit.context.close();
  });
});
