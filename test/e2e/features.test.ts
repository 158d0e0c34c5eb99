import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, watchTrustedTypes } from "../support/browser";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";
import { expectAccessible } from "./accessibility";
import { gotoApp, signIn } from "./helpers";

/**
 * Feature switches (spec 000 §1, §3): an instance started with DISABLE_FEATURES=convo,leftnav
 * (packages/core config) has no conversations or pickups and no left navigation: every entry of
 * them is gone, not only the home plus menu, and their routes are not found.
 */
const ADMIN = { email: "switches.admin@example.ch", password: "switches-admin-pw-1", name: "Switches Admin" };
const NOT_FOUND = "Requested content not found.";

describe("an instance with conversations and the left navigation switched off", () => {
  let browser: Browser;
  let runtime: SpawnedRuntime;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    [browser, runtime] = await Promise.all([
      launchBrowser(),
      spawnRuntime({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name, DISABLE_FEATURES: "convo,leftnav" } }),
    ]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await runtime?.stop();
  });

  async function visitor(viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context = await browser.newContext({ baseURL: runtime.url, viewport, locale: "en-GB" });
    watchTrustedTypes(context);
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    return context.newPage();
  }

  it("offers no conversation, pickup or left navigation anywhere, and their routes are not found", { timeout: 120_000 }, async () => {
    const page = await visitor();
    // The login screen has no pickup mode; a pickup link says pickups are not available here.
    const instance = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/instance");
    await page.goto("/login");
    await page.getByRole("radio", { name: "Email" }).waitFor();
    // Once the instance has answered (and the screen had a moment to show what it said).
    await instance;
    await page.waitForTimeout(300);
    expect(await page.getByRole("radio", { name: "Pickup" }).count()).toBe(0);
    // (A link opens a fresh page; a change of the fragment alone would not load one.)
    await page.goto("about:blank");
    await page.goto("/login#ABABA12121");
    await page.getByText("Pickups are not available on this instance.").waitFor();
    await expectAccessible(page, "login, pickups off");

    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole("heading", { name: `Hello, ${ADMIN.name}!` }).waitFor();
    // Home: groups, not the conversation list; the plus menu offers a super administrator a new group only.
    await page.getByRole("region", { name: "Groups" }).waitFor();
    expect(await page.getByRole("region", { name: "Conversations" }).count()).toBe(0);
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("menuitem", { name: "New group" }).waitFor();
    expect(await page.getByRole("menuitem").count()).toBe(1);
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    // No left navigation; the top bar has no conversations, but settings and the user menu.
    expect(await page.getByRole("navigation", { name: "Main menu" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Conversations/ }).count()).toBe(0);
    await page.getByRole("link", { name: "Open settings" }).waitFor();
    await page.getByRole("button", { name: "User menu" }).click();
    await page.getByRole("menuitem", { name: "Administration" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("menu").waitFor({ state: "detached" });
    await expectAccessible(page, "home, conversations and left navigation off");

    for (const path of ["/conversation/list", "/conversation/new", "/conversation/1", "/pickup/new", "/panel-left/", "/panel-right/"]) {
      await gotoApp(page, path);
      await page.getByText(NOT_FOUND).waitFor();
    }
    // And no notification check runs.
    const checks: string[] = [];
    page.on("request", (request) => void (request.url().includes("/api/notify/check") && checks.push(request.url())));
    await gotoApp(page, "/");
    await page.getByRole("heading", { name: `Hello, ${ADMIN.name}!` }).waitFor();
    await page.waitForTimeout(1_000);
    expect(checks).toEqual([]);
  });

  it("on a phone there is no burger without a left navigation", async () => {
    const page = await visitor({ width: 400, height: 800 });
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole("heading", { name: `Hello, ${ADMIN.name}!` }).waitFor();
    expect(await page.getByRole("button", { name: "Open navigation" }).count()).toBe(0);
  });

  // The same instance with the left navigation on (its answer changed in the browser): the menu
  // has no conversation entries, and /panel-left/ shows it as a page.
  it("with the left navigation on, its menu has no conversation entries", async () => {
    const page = await visitor();
    await page.route("**/api/instance", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { disableFeatures: string[] };
      await route.fulfill({ response, json: { ...body, disableFeatures: body.disableFeatures.filter((f) => f !== "leftnav") } });
    });
    await signIn(page, ADMIN.email, ADMIN.password);
    const nav = page.getByRole("navigation", { name: "Main menu" });
    await nav.getByRole("link", { name: "Settings" }).waitFor();
    await nav.getByText("Nothing recent!").waitFor();
    expect(await nav.getByRole("link", { name: /Conversation/ }).count()).toBe(0);
    expect(await nav.getByRole("region", { name: "Conversations" }).count()).toBe(0);
    await gotoApp(page, "/panel-left/");
    const menu = page.locator("main").getByRole("navigation", { name: "Menu" });
    await menu.getByRole("link", { name: "Administration" }).waitFor();
    expect(await menu.getByRole("link", { name: /Conversation/ }).count()).toBe(0);
    await expectAccessible(page, "/panel-left/, conversations off");
  });
});
