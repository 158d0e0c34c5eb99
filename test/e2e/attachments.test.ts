import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser";
import { png } from "../support/png";
import { shareGroup, startConversation } from "../support/conversations";
import { createSession } from "../support/users";
import { messageBox, messageList, signedIn } from "./conversation-helpers";
import { gotoApp } from "./helpers";

/**
 * Attachments in the browser (issue 4): files are encrypted in the page and uploaded straight to
 * the local bucket; the other participant sees the thumbnail, downloads, decrypts and saves.
 */
const POLL_WAIT = 25_000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("attachments in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const panelList = (page: Page) => page.getByTestId("attachment-list");

  it("sends a 17 MB file (three upload parts) and an image; the other side sees the thumbnail, downloads and gets the same bytes", { timeout: 240_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    const a = await signedIn(browser, ann);
    const b = await signedIn(browser, ben);
    const { id } = await startConversation(ann, [ben], { realKeys: true });
    await gotoApp(a, `/conversation/${id}`);
    await panelList(a).getByText("No attachments found!").waitFor();

    // A 17 MB file (three 8 MiB parts, each encrypted while the one before uploads): progress
    // while it goes, then a chip in the message bar; Enter sends it.
    const report = randomBytes(17 * 1024 * 1024);
    await a.getByTestId("attach-file").setInputFiles({ name: "report.bin", mimeType: "application/octet-stream", buffer: report });
    await a.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await a.getByText("report.bin").first().waitFor();
    await messageBox(a).fill("The report");
    await messageBox(a).press("Enter");
    await messageList(a).locator('[data-attachment-name="report.bin"]').waitFor();

    // An image, sent without text: it gets an encrypted thumbnail.
    const image = png(640, 480);
    await a.getByTestId("attach-image").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: image });
    await a.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await messageBox(a).press("Enter");
    await messageList(a).locator('[data-attachment-name="photo.png"] img[data-thumb-state="thumb"]').waitFor();

    // Ben: the thumbnail, drawn from the decrypted thumbnail object.
    await gotoApp(b, `/conversation/${id}`);
    const thumb = messageList(b).locator('[data-attachment-name="photo.png"] img[data-thumb-state="thumb"]');
    await thumb.waitFor({ timeout: POLL_WAIT });
    expect(await thumb.getAttribute("alt")).toBe("photo.png");
    const size = await thumb.evaluate((img) => [(img as unknown as { naturalWidth: number }).naturalWidth, (img as unknown as { naturalHeight: number }).naturalHeight]);
    expect(size).toEqual([200, 150]);

    // Download: not downloaded → downloading → ready to save; the saved bytes are the sent ones.
    const file = messageList(b).locator('[data-attachment-name="report.bin"]');
    expect(await file.getAttribute("data-download-state")).toBe("none");
    await file.getByText("17 MB").waitFor();
    await file.getByRole("button", { name: "Download" }).click();
    await file.getByRole("link", { name: "Save" }).waitFor({ timeout: 60_000 });
    expect(await file.getAttribute("data-download-state")).toBe("ready");
    const [download] = await Promise.all([b.waitForEvent("download"), file.getByRole("link", { name: "Save" }).click()]);
    expect(download.suggestedFilename()).toBe("report.bin");
    expect(sha256(await readFile((await download.path())!))).toBe(sha256(report));

    // The right panel lists both files, newest first.
    await expect.poll(() => panelList(b).locator("[data-attachment-name]").evaluateAll((els) => els.map((e) => e.getAttribute("data-attachment-name")))).toEqual(["photo.png", "report.bin"]);

    await a.context().close();
    await b.context().close();
  });

  it("cancels an upload: no chip, nothing sent", { timeout: 120_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    const [a, b] = await Promise.all([signedIn(browser, ann), signedIn(browser, ben)]);
    await b.context().close();
    const { id } = await startConversation(ann, [ben], { realKeys: true });
    await gotoApp(a, `/conversation/${id}`);
    await messageBox(a).waitFor();
    // Hold the bucket's answer, so there is time to cancel.
    await a.context().route(/sealwork-files/, async (route) => {
      await new Promise((r) => setTimeout(r, 3_000));
      await route.continue().catch(() => undefined);
    });
    await a.getByTestId("attach-file").setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: randomBytes(3 * 1024 * 1024) });
    await a.getByTestId("upload-progress").waitFor();
    await a.getByRole("button", { name: "Cancel upload" }).click();
    await a.getByTestId("upload-progress").waitFor({ state: "detached" });
    expect(await a.getByText("big.bin").count()).toBe(0);
    // Nothing to send: Enter on an empty bar does nothing.
    await messageBox(a).press("Enter");
    expect(await messageList(a).locator("[data-message]").count()).toBe(0);
    await a.context().close();
  });

  it("a file whose sender calls it HTML is saved as application/octet-stream with a download name, never opened as a page (issue 11, item 8)", { timeout: 180_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    const [a, b] = await Promise.all([signedIn(browser, ann), signedIn(browser, ben)]);
    const { id } = await startConversation(ann, [ben], { realKeys: true });
    await gotoApp(a, `/conversation/${id}`);
    const html = Buffer.from('<!doctype html><title>evil</title><script>document.title = "ran"</script><h1>owned</h1>');
    await a.getByTestId("attach-file").setInputFiles({ name: "invoice.html", mimeType: "text/html", buffer: html });
    await a.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await messageBox(a).press("Enter");
    await messageList(a).locator('[data-attachment-name="invoice.html"]').waitFor();

    await gotoApp(b, `/conversation/${id}`);
    const file = messageList(b).locator('[data-attachment-name="invoice.html"]');
    await file.waitFor({ timeout: POLL_WAIT });
    await file.getByRole("button", { name: "Download invoice.html" }).click();
    const save = file.getByRole("link", { name: "Save invoice.html" });
    await save.waitFor({ timeout: 60_000 });
    // A download disposition: the link saves under the file's name.
    expect(await save.getAttribute("download")).toBe("invoice.html");
    const href = (await save.getAttribute("href"))!;
    expect(href).toMatch(/^blob:/);
    const [download] = await Promise.all([b.waitForEvent("download"), save.click()]);
    expect(download.suggestedFilename()).toBe("invoice.html");
    expect(sha256(await readFile((await download.path())!))).toBe(sha256(html));

    // The blob itself is application/octet-stream: opened as a page (a new tab, a crafted link),
    // it downloads instead of rendering the sender's HTML as this origin.
    const tab = await b.context().newPage();
    const [opened] = await Promise.all([tab.waitForEvent("download"), tab.goto(href).catch(() => undefined)]);
    expect(sha256(await readFile((await opened.path())!))).toBe(sha256(html));
    expect(await tab.title()).not.toBe("ran");
    expect(await tab.evaluate("document.body ? document.body.innerText : ''")).not.toContain("owned");
    await Promise.all([a.context().close(), b.context().close()]);
  });
});
