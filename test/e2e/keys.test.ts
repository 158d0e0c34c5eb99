import { readFile } from "node:fs/promises";
import { Keypair } from "@sealwork/core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, login } from "../support/api";
import { launchBrowser, newVisitor, watchTrustedTypes } from "../support/browser";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";
import { createUser } from "../support/users";
import { buildWeb } from "../support/web-build";
import { gotoApp, keyPopupState, passKeyPopup, signIn } from "./helpers";

const CODE = "keys-e2e-code-7";

/** The vault entry of a user as IndexedDB holds it (evaluated in the page; DOM types stay there). */
/** Makes the page's clock run `ms` ahead of the real one (and the server's). */
async function shiftClock(context: BrowserContext, ms: number): Promise<void> {
  await context.addInitScript(`(() => {
    const shift = ${ms};
    const RealDate = Date;
    class ShiftedDate extends RealDate {
      constructor(...args) { if (args.length === 0) super(RealDate.now() + shift); else super(...args); }
      static now() { return RealDate.now() + shift; }
    }
    globalThis.Date = ShiftedDate;
  })()`);
}

function readVault(page: Page, uid: number): Promise<unknown> {
  return page.evaluate(`(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes("sealwork-vault")) return undefined;
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open("sealwork-vault");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const value = await new Promise((resolve, reject) => {
      const request = db.transaction("keys", "readonly").objectStore("keys").get("account:${uid}");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return value;
  })()`);
}

function writeVault(page: Page, uid: number, value: unknown): Promise<unknown> {
  return page.evaluate(`(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open("sealwork-vault");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise((resolve, reject) => {
      const tx = db.transaction("keys", "readwrite");
      tx.objectStore("keys").put(${JSON.stringify(value)}, "account:${uid}");
      tx.oncomplete = () => resolve(undefined);
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  })()`);
}

const dialogOf = (page: Page) => page.getByRole("dialog", { name: "Secure key" });

async function logoutAs(page: Page, item: "Logout" | "Logout keeping local cache" | "Wipe and logout") {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: item, exact: true }).click();
  await page.waitForURL("**/login");
}

async function typeCode(page: Page, code: string, button: string) {
  const dialog = dialogOf(page);
  await dialog.getByLabel("Secure code", { exact: true }).fill(code);
  await dialog.getByRole("button", { name: button, exact: true }).click();
}

async function serverKey(uid: number, password: string) {
  const session = await login(uid, password);
  const reply = await http<{ keypair: { id: number; encrypt_public: string; sign_public: string; valid: boolean } | null }>("GET", "/api/keypairs", { token: session.api_token });
  return reply.body.keypair;
}

describe("the secure-key popup in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a new user chooses a secure code (the rule is enforced), then unlocks after a logout that keeps the cache", async () => {
    const user = await createUser({ name: "Key Maker" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!, null);
    expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("fresh");
    const dialog = dialogOf(page);
    // The popup blocks the app: no page content behind it, no way to close it but logging out.
    expect(await page.getByRole("heading", { name: "Hello, Key Maker!" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    await dialog.waitFor();

    await dialog.getByLabel("Secure code", { exact: true }).fill("short1");
    await dialog.getByLabel("Repeat secure code").fill("short1");
    await dialog.getByRole("button", { name: "Create my key" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Your securecode must 8 or more characters, including one digit and letter." }).waitFor();
    await dialog.getByLabel("Secure code", { exact: true }).fill(CODE);
    await dialog.getByLabel("Repeat secure code").fill(CODE + "x");
    await dialog.getByRole("button", { name: "Create my key" }).click();
    await dialog.getByText("The secure codes do not match.").waitFor();
    await dialog.getByLabel("Repeat secure code").fill(CODE);
    await dialog.getByRole("button", { name: "Create my key" }).click();
    await page.getByRole("heading", { name: "Hello, Key Maker!" }).waitFor();

    // This device keeps the encrypted envelope only; the server has the same public keys.
    const stored = (await readVault(page, user.id)) as { keyId: number; envelope: string };
    const envelope = JSON.parse(stored.envelope) as Record<string, unknown>;
    expect(Object.keys(envelope).sort()).toEqual(["alg", "ct", "encryptPublic", "iterations", "kind", "memoryKiB", "nonce", "parallelism", "salt", "signPublic", "v"]);
    expect(envelope).toMatchObject({ kind: "secure-code-wrap", memoryKiB: 65536, iterations: 3 });
    expect(JSON.stringify(stored)).not.toContain(CODE);
    const key = await serverKey(user.id, user.password!);
    expect(key).toMatchObject({ id: stored.keyId, encrypt_public: envelope.encryptPublic, sign_public: envelope.signPublic, valid: true });

    await logoutAs(page, "Logout keeping local cache");
    await signIn(page, user.email, user.password!, null);
    expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("unlock");
    await typeCode(page, "wrong-code-123", "Unlock");
    await dialog.getByRole("alert").filter({ hasText: "Error decrypting your key." }).waitFor();
    await typeCode(page, CODE, "Unlock");
    await page.getByRole("heading", { name: "Hello, Key Maker!" }).waitFor();

    // A reload forgets the unlocked key (memory only) and asks again.
    await page.reload();
    expect(await keyPopupState(page, ["unlock", "missing", "error"])).toBe("unlock");
    // The code field has the focus: typing the code and pressing Enter unlocks.
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('name')")).toBe("secure-code");
    await page.keyboard.type(CODE);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Hello, Key Maker!" }).waitFor();

    // "Wipe and logout" removes this device's copy: the next login must recover it.
    await logoutAs(page, "Wipe and logout");
    expect(await readVault(page, user.id)).toBeUndefined();
    await signIn(page, user.email, user.password!, null);
    expect(await keyPopupState(page, ["unlock", "missing", "error"])).toBe("missing");
    await context.close();
  });

  it("a fresh browser recovers the key from the server backup with the code, and settings show the key's data", async () => {
    const user = await createUser({ name: "Key Traveller" });
    const first = await newVisitor(browser);
    await signIn(first.page, user.email, user.password!, CODE);
    await first.page.getByRole("heading", { name: "Hello, Key Traveller!" }).waitFor();
    await first.context.close();

    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!, null);
    expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("missing");
    const dialog = dialogOf(page);
    await dialog.getByText("This device does not have your key yet.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Recover from the server backup" }).click();
    await typeCode(page, "not-the-code-1", "Recover");
    await dialog.getByText("Error decrypting your key.").waitFor();
    await typeCode(page, CODE, "Recover");
    await page.getByRole("heading", { name: "Hello, Key Traveller!" }).waitFor();
    const key = await serverKey(user.id, user.password!);
    expect(((await readVault(page, user.id)) as { keyId: number }).keyId).toBe(key!.id);

    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Display keypair data" }).click();
    const table = page.getByRole("table", { name: "Your key" });
    await table.getByRole("row", { name: `Key ID ${key!.id}` }).waitFor();
    await table.getByRole("row", { name: /Signature Verified/ }).waitFor();
    const fingerprint = /^([0-9a-f]{4} ){15}[0-9a-f]{4}$/;
    for (const label of ["Encryption key fingerprint", "Signing key fingerprint", "Account fingerprint"]) {
      const cell = table.getByRole("row", { name: new RegExp(`^${label}`) }).getByRole("cell");
      await expect.poll(async () => (await cell.textContent())?.trim()).toMatch(fingerprint);
    }
    await context.close();
  });

  it("refuses to go on with a clock two days off (SNTL)", async () => {
    const user = await createUser({ name: "Late Clock" });
    const { context, page } = await newVisitor(browser);
    await shiftClock(context, 2 * 24 * 3600 * 1000);
    await signIn(page, user.email, user.password!, null);
    expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("error");
    const dialog = dialogOf(page);
    await dialog.getByText("Your system clock is inaccurate.", { exact: false }).waitFor();
    expect(await dialog.getByRole("alert").textContent()).toContain("SNTL");
    expect(await serverKey(user.id, user.password!)).toBeNull();
    // The popup offers logging out, nothing else gets past it.
    await dialog.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/login");
    await context.close();
  });

  it("refuses a remote key lookup with the clock two hours off, though the key itself loads", async () => {
    const user = await createUser({ name: "Drifting Clock" });
    const { context, page } = await newVisitor(browser);
    // Within the sentinel's 24 hours, beyond the 3600 s that remote key lookups allow.
    await shiftClock(context, 2 * 3600 * 1000);
    await signIn(page, user.email, user.password!, CODE);
    await gotoApp(page, "/settings/", CODE);
    await page.getByRole("button", { name: "Display keypair data" }).click();
    const table = page.getByRole("table", { name: "Your key" });
    await table.getByRole("row", { name: /Signature/ }).getByText("Server and client time are too different!").waitFor();
    await context.close();
  });

  it("exports the key file in settings and imports it in another fresh browser", async () => {
    const user = await createUser({ name: "Key Exporter" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!, CODE);
    await gotoApp(page, "/settings/", CODE);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export encrypted backup key" }).click()]);
    const key = await serverKey(user.id, user.password!);
    expect(download.suggestedFilename()).toBe(`sealwork-key-${user.id}-${key!.id}.json`);
    const file = await download.path();
    const text = await readFile(file, "utf8");
    expect(JSON.parse(text)).toMatchObject({ kind: "secure-code-wrap", encryptPublic: key!.encrypt_public, signPublic: key!.sign_public });
    expect(text).not.toContain(CODE);
    await context.close();

    const other = await newVisitor(browser);
    await signIn(other.page, user.email, user.password!, null);
    expect(await keyPopupState(other.page, ["fresh", "unlock", "missing", "error"])).toBe("missing");
    const dialog = dialogOf(other.page);
    await dialog.getByRole("button", { name: "Import a key file" }).click();
    const choose = async (payload: { name: string; mimeType: string; buffer: Buffer }) => {
      const [chooser] = await Promise.all([other.page.waitForEvent("filechooser"), dialog.getByRole("button", { name: "Key file" }).click()]);
      await chooser.setFiles(payload);
    };
    await choose({ name: "not-a-key.json", mimeType: "application/json", buffer: Buffer.from('{"hello":"world"}') });
    await dialog.getByText("Error importing your key file...").waitFor();
    await choose({ name: "key.json", mimeType: "application/json", buffer: Buffer.from(text) });
    await dialog.getByText("Error importing your key file...").waitFor({ state: "detached" });
    await typeCode(other.page, "wrong-code-456", "Import");
    await dialog.getByText("Error decrypting your key.").waitFor();
    await typeCode(other.page, CODE, "Import");
    await other.page.getByRole("heading", { name: "Hello, Key Exporter!" }).waitFor();
    expect(((await readVault(other.page, user.id)) as { keyId: number }).keyId).toBe(key!.id);

    // The same file imported again from settings, unlocked with its code.
    await other.page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Settings" }).click();
    const [chooser] = await Promise.all([other.page.waitForEvent("filechooser"), other.page.getByRole("button", { name: "Import a key file" }).click()]);
    await chooser.setFiles({ name: "key.json", mimeType: "application/json", buffer: Buffer.from(text) });
    const unlock = other.page.getByRole("dialog", { name: "Unlock the imported key" });
    await unlock.getByLabel("Secure code").fill(CODE);
    await unlock.getByRole("button", { name: "Unlock" }).click();
    await other.page.getByText("Your key file was imported.").waitFor();
    const [bad] = await Promise.all([other.page.waitForEvent("filechooser"), other.page.getByRole("button", { name: "Import a key file" }).click()]);
    await bad.setFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from("nonsense") });
    await other.page.getByRole("dialog", { name: "Error" }).getByText("Error importing your key file...").waitFor();
    await other.context.close();
  });

  it("offers to save or clear a damaged local key (LINV), then recovers", async () => {
    const user = await createUser({ name: "Damaged Key" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!, CODE);
    const stored = (await readVault(page, user.id)) as Record<string, unknown>;
    await writeVault(page, user.id, { ...stored, envelope: '{"v":1,"kind":"secure-code-wrap"}' });
    await page.reload();
    expect(await keyPopupState(page, ["unlock", "missing", "error"])).toBe("error");
    const dialog = dialogOf(page);
    expect(await dialog.getByRole("alert").textContent()).toContain("LINV");
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Save the local key" }).click()]);
    expect(await readFile(await download.path(), "utf8")).toContain('\\"kind\\":\\"secure-code-wrap\\"');
    await dialog.getByRole("button", { name: "Clear the local key" }).click();
    // Clearing is asynchronous: read the next state only once the error state has gone.
    await page.locator('[data-key-state="error"]').waitFor({ state: "detached" });
    expect(await keyPopupState(page, ["missing", "error"])).toBe("missing");
    await passKeyPopup(page, CODE);
    await page.getByRole("heading", { name: "Hello, Damaged Key!" }).waitFor();
    await context.close();
  });

  it("asks for a new key when the current one was invalidated", async () => {
    const user = await createUser({ name: "Key Renewer" });
    const { context, page } = await newVisitor(browser);
    await signIn(page, user.email, user.password!, CODE);
    const before = await serverKey(user.id, user.password!);
    await Keypair.invalidate(user.id);
    await page.reload();
    expect(await keyPopupState(page, ["unlock", "missing", "invalidated", "error"])).toBe("invalidated");
    const dialog = dialogOf(page);
    await dialog.getByRole("button", { name: "Create a new key" }).click();
    expect(await keyPopupState(page, ["fresh"])).toBe("fresh");
    await passKeyPopup(page, "renewed-code-2");
    await page.getByRole("heading", { name: "Hello, Key Renewer!" }).waitFor();
    const after = await serverKey(user.id, user.password!);
    expect(after).toMatchObject({ valid: true });
    expect(after!.id).toBeGreaterThan(before!.id);
    await context.close();
  });

  it("ignores a server that says secure codes are off and names the code (issue 11, item 3)", async () => {
    const user = await createUser({ name: "Code Keeper" });
    const { context, page } = await newVisitor(browser);
    // A lying server: every key-state answer claims codes are off and hands out a code it knows.
    const SERVER_CODE = "server-chosen-code-1";
    await page.route("**/api/keypairs", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { instance: Record<string, unknown> };
      body.instance = { ...body.instance, disableSecurecode: true, defaultSecurecode: SERVER_CODE };
      await route.fulfill({ response, json: body });
    });
    await signIn(page, user.email, user.password!, null);
    expect(await keyPopupState(page, ["fresh", "unlock", "missing", "error"])).toBe("fresh");
    // The popup asks for the user's own code: nothing was submitted by itself.
    await page.waitForTimeout(500);
    expect(await serverKey(user.id, user.password!)).toBeNull();
    expect(await dialogOf(page).getByText("This instance uses a default secure code").count()).toBe(0);
    await passKeyPopup(page, CODE);
    await page.getByRole("heading", { name: "Hello, Code Keeper!" }).waitFor();
    const stored = (await readVault(page, user.id)) as { envelope: string };
    const { unwrapAccountKeys } = await import("@sealwork/crypto");
    await expect(unwrapAccountKeys(stored.envelope, SERVER_CODE)).rejects.toThrow();
    await context.close();
  });
});

describe("an instance whose build switched secure codes off", () => {
  let browser: Browser;
  let runtime: SpawnedRuntime;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    // The setting belongs to the tenant's SPA build (web/build-settings.ts), not to the server.
    const webDir = await buildWeb({ DISABLE_SECURECODE: "true", DEFAULT_SECURECODE: "instance-default-code-1" });
    [browser, runtime] = await Promise.all([
      launchBrowser(),
      spawnRuntime({
        env: {
          ADMIN_EMAIL: "nocode.admin@example.ch",
          ADMIN_PASSWORD: "nocode-admin-pw-1",
          ADMIN_NAME: "Nocode Admin",
          WEB_DIR: webDir,
        },
      }),
    ]);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await runtime?.stop();
  });

  it("creates and later unlocks the key with the instance's default code, without asking", async () => {
    context = await browser.newContext({ baseURL: runtime.url, locale: "en-GB" });
    watchTrustedTypes(context!);
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await signIn(page, "nocode.admin@example.ch", "nocode-admin-pw-1", null);
    await page.getByRole("heading", { name: "Hello, Nocode Admin!" }).waitFor();
    await logoutAs(page, "Logout keeping local cache");
    await signIn(page, "nocode.admin@example.ch", "nocode-admin-pw-1", null);
    await page.getByRole("heading", { name: "Hello, Nocode Admin!" }).waitFor();
  });
});
