import type { ConsoleMessage, Page, Request } from "playwright-core";
import { BROWSER_SECURE_CODE } from "../support/keys";

/**
 * How long the key popup may take to close after its last click: Argon2id over 64 MiB, fresh keys
 * and their registration take seconds on a quiet machine and tens of seconds on two cores running
 * the whole suite (a CI run timed an invitee's takeover out at 30 s).
 */
export const KEY_WORK_TIMEOUT = 90_000;

/**
 * The login screen's email path: contact, then password; then, unless `secureCode` is null (a
 * login that is meant to fail), the secure-key popup with that code (see passKeyPopup).
 */
export async function signIn(page: Page, email: string, password: string, secureCode: string | null = TEST_SECURE_CODE): Promise<void> {
  await page.goto("/login");
  await page.getByRole("radio", { name: "Email" }).check();
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  if (secureCode !== null) await passKeyPopup(page, secureCode);
}

// --- Account keys: the secure-key popup blocks the app after every login and page load -------

/** The secure code the browser tests give every account unless a test chooses its own. */
export const TEST_SECURE_CODE = BROWSER_SECURE_CODE;

export type KeyPopupState = "checking" | "fresh" | "unlock" | "missing" | "recovery" | "import" | "invalidated" | "temp" | "error" | "loaded";

/** Waits until the key popup shows one of `states`, and says which. */
export async function keyPopupState(page: Page, states: KeyPopupState[]): Promise<KeyPopupState> {
  const popup = page.locator(states.map((state) => `[data-key-state="${state}"]`).join(", ")).first();
  await popup.waitFor();
  return (await popup.getAttribute("data-key-state")) as KeyPopupState;
}

/**
 * Gets past the key popup with `code`, whatever the account and this browser hold: creates the
 * key (fresh), unlocks this device's copy (unlock), or recovers the server's backup (missing).
 * Call it after anything that signs in or loads a page of the app afresh (page.goto, reload).
 */
export async function passKeyPopup(page: Page, code: string = TEST_SECURE_CODE): Promise<void> {
  const state = await keyPopupState(page, ["fresh", "unlock", "missing", "error", "invalidated"]);
  const dialog = page.getByRole("dialog", { name: "Secure key" });
  if (state === "fresh") {
    await dialog.getByLabel("Secure code", { exact: true }).fill(code);
    // Enter, not a click on "Create my key": the strength meter appears a moment after the code
    // (its chunk loads), the centred modal grows and moves the button, and a click aimed before
    // that lands beside it (a CI run waited 90 s on a popup that never saw the click).
    await dialog.getByLabel("Repeat secure code").fill(code);
    await dialog.getByLabel("Repeat secure code").press("Enter");
  } else if (state === "unlock") {
    await dialog.getByLabel("Secure code", { exact: true }).fill(code);
    await dialog.getByRole("button", { name: "Unlock" }).click();
  } else if (state === "missing") {
    await dialog.getByRole("button", { name: "Recover from the server backup" }).click();
    await dialog.getByLabel("Secure code", { exact: true }).fill(code);
    await dialog.getByRole("button", { name: "Recover", exact: true }).click();
  } else {
    throw new Error(`The key popup is in state ${state}: ${await dialog.textContent()}`);
  }
  await untilKeyPopupCloses(page);
}

/**
 * Waits for the key popup to close after its last click. If it does not, the error says what the
 * popup shows and which API calls the page made meanwhile (answered, with their time, or still
 * open) and what it logged: whether the browser or the runtime held it up.
 */
export async function untilKeyPopupCloses(page: Page): Promise<void> {
  const start = Date.now();
  const calls: string[] = [];
  const open = new Map<unknown, string>();
  const onRequest = (r: Request) => {
    if (new URL(r.url()).pathname.startsWith("/api/")) open.set(r, `${((Date.now() - start) / 1000).toFixed(1)}s ${r.method()} ${new URL(r.url()).pathname}`);
  };
  const onDone = (r: Request) => {
    const line = open.get(r);
    if (line === undefined) return;
    open.delete(r);
    calls.push(`${line} -> ${r.failure()?.errorText ?? "answered"} at ${((Date.now() - start) / 1000).toFixed(1)}s`);
  };
  const onConsole = (m: ConsoleMessage) => calls.push(`${((Date.now() - start) / 1000).toFixed(1)}s console.${m.type()}: ${m.text().slice(0, 300)}`);
  page.on("request", onRequest).on("requestfinished", onDone).on("requestfailed", onDone).on("console", onConsole);
  try {
    await page.locator("[data-key-state]").waitFor({ state: "detached", timeout: KEY_WORK_TIMEOUT });
  } catch (error) {
    const shown = await page.locator("[data-key-state]").first().evaluate((e) => `${e.getAttribute("data-key-state")}: ${e.textContent}`).catch(() => "(gone)");
    throw new Error(`The key popup did not close within ${KEY_WORK_TIMEOUT / 1000} s. It shows ${shown}\n${[...calls, ...[...open.values()].map((l) => `${l} -> still open`)].join("\n")}`, { cause: error });
  } finally {
    page.off("request", onRequest).off("requestfinished", onDone).off("requestfailed", onDone).off("console", onConsole);
  }
}

/** page.goto for pages of the signed-in app: the reload asks for the secure code again. */
export async function gotoApp(page: Page, path: string, code: string = TEST_SECURE_CODE): Promise<void> {
  await page.goto(path);
  await passKeyPopup(page, code);
}

/**
 * Settings (reached with the secure code `current`), "Renew my key…" with the new `code`; answers
 * once the renewal is done, the containers it renews among it.
 */
export async function renewKeyInSettings(page: Page, current: string, code: string): Promise<void> {
  await gotoApp(page, "/settings/", current);
  await page.getByRole("button", { name: "Renew my key…" }).click();
  const dialog = page.getByRole("dialog", { name: "Renew my key" });
  await dialog.getByLabel("Secure code", { exact: true }).fill(code);
  await dialog.getByLabel("Repeat secure code").fill(code);
  await dialog.getByRole("button", { name: "Renew key" }).click();
  await dialog.waitFor({ state: "detached", timeout: KEY_WORK_TIMEOUT });
  await page.getByText("Your key was renewed.").waitFor();
}

// --- end of account keys ---------------------------------------------------------------------

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

/** The page's sessionStorage entries. */
export async function sessionEntries(page: Page): Promise<[string, string][]> {
  return page.evaluate<[string, string][]>("Object.entries(sessionStorage)");
}

/** The signed-in session the SPA keeps for a reload of this tab (sessionStorage; never localStorage). */
export async function storedSession(page: Page): Promise<{ id: number; api_token: string } | undefined> {
  const entry = (await sessionEntries(page)).find(([key]) => key.endsWith("session"));
  return entry ? (JSON.parse(entry[1]) as { id: number; api_token: string }) : undefined;
}
