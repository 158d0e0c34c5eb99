import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, watchTrustedTypes } from "../support/browser";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";
import { expectAccessible } from "./accessibility";
import { passKeyPopup } from "./helpers";

describe("a new instance in the browser", () => {
  let browser: Browser;
  let runtime: SpawnedRuntime;
  beforeAll(async () => {
    [browser, runtime] = await Promise.all([launchBrowser(), spawnRuntime({ env: { IDLE_TIMEOUT: "3" } })]);
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.stop();
  });

  it("creates the first administrator from the setup link, then logs out after the idle timeout", async () => {
    const context = await browser.newContext({ baseURL: runtime.url });
    watchTrustedTypes(context);
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();

    await page.goto("/login");
    await page.getByText("This instance has not been set up yet.", { exact: false }).waitFor();
    await expectAccessible(page, "login, not set up");

    await page.goto(runtime.setupUrl!.replace(/^http:\/\/localhost:\d+/, runtime.url));
    await page.getByLabel("Name").waitFor();
    await expectAccessible(page, "setup");
    await page.getByLabel("Name").fill("Founding Admin");
    await page.getByLabel("Email address").fill("founder@example.ch");
    await page.getByLabel("Password", { exact: true }).fill("founder-pw-123");
    await page.getByLabel("Password confirmation").fill("founder-pw-123");
    await page.getByRole("button", { name: "Create administrator" }).click();
    await passKeyPopup(page);
    await page.getByRole("heading", { name: "Hello, Founding Admin!" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Administration" }).count()).toBe(1);

    // Nobody touches the page: after 3 idle seconds the app logs out and reloads.
    await page.waitForURL("**/login", { timeout: 15_000 });
    await page.goto("/setup");
    await page.getByText("This instance is already set up.").waitFor();
    await context.close();
  });
});
