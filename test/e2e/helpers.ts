import type { Page } from "playwright-core";

/** The login screen's email path: contact, then password. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByRole("radio", { name: "Email" }).check();
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** The text of the open "Error" dialog. */
export async function errorDialogText(page: Page): Promise<string> {
  const dialog = page.getByRole("dialog", { name: "Error" });
  await dialog.waitFor();
  return (await dialog.textContent()) ?? "";
}

/** The page's localStorage entries (evaluated in the page, which has the DOM). */
export async function storedEntries(page: Page): Promise<[string, string][]> {
  return page.evaluate<[string, string][]>("Object.entries(localStorage)");
}

/** The signed-in session the SPA keeps in localStorage. */
export async function storedSession(page: Page): Promise<{ id: number; api_token: string } | undefined> {
  const entry = (await storedEntries(page)).find(([key]) => key.endsWith("session"));
  return entry ? (JSON.parse(entry[1]) as { id: number; api_token: string }) : undefined;
}
