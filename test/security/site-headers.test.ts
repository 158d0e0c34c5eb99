import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { http } from "../support/api";
import { launchBrowser, newVisitor, trustedTypesViolations } from "../support/browser";
import { shareGroup, startConversation } from "../support/conversations";
import { createSession } from "../support/users";
import { gotoApp, signIn } from "../e2e/helpers";

/**
 * The SPA's security headers (stacks/site-headers.ts; the Web stack sends the same through
 * CloudFront): a Content-Security-Policy that lets no inline or foreign script run and lets the page
 * talk to the API and the bucket only, no framing, no referrer. The browser test goes through what
 * the policy must allow (Argon2id in WebAssembly, a TOTP QR code as data:, an encrypted image
 * upload to the bucket and its decrypted thumbnail as blob:) and fails on any violation.
 */
const directives = (csp: string) => Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

/** A 4×3 grey PNG: small, but a real image the browser draws a thumbnail of. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAADklEQVR4nGNIQAIMODkAB3YNgVYutE8AAAAASUVORK5CYII=", "base64");

describe("the SPA's security headers", () => {
  it("come with every page and asset: a strict CSP naming the bucket, no framing, no referrer, nosniff", async () => {
    const bucket = new URL(inject("runtime").env.S3_ENDPOINT!).origin;
    const page = await http("GET", "/conversation/1");
    const asset = String(page.body).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    for (const reply of [page, await http("GET", "/"), await http("GET", asset!)]) {
      const csp = directives(reply.headers.get("content-security-policy")!);
      expect(csp["default-src"]).toEqual(["'none'"]);
      expect(csp["script-src"]).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp["connect-src"]).toEqual(["'self'", bucket]);
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(csp["base-uri"]).toEqual(["'none'"]);
      // Trusted Types: no string reaches a script sink; the only policy is the app's "default".
      expect(csp["require-trusted-types-for"]).toEqual(["'script'"]);
      expect(csp["trusted-types"]).toEqual(["default"]);
      expect(reply.headers.get("x-frame-options")).toBe("DENY");
      expect(reply.headers.get("referrer-policy")).toBe("no-referrer");
      expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
      expect(reply.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    }
    const outbox = await http("GET", "/dev/outbox");
    expect(outbox.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(outbox.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});

describe("the SPA under its CSP", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Records every CSP violation the page reports (the event and the console's own message). */
  async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
    const fromConsole: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) fromConsole.push(message.text());
    });
    // Page code as text: the test project has no DOM types.
    await page.addInitScript(`
      window.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI));
    `);
    return async () => [...fromConsole, ...((await page.evaluate("window.__cspViolations")) as string[])];
  }

  it("keys (WebAssembly), the TOTP QR code (data:), an image upload and its thumbnail (bucket, blob:) work without a violation; injected script does not run", { timeout: 180_000 }, async () => {
    const [ann, ben] = await Promise.all([createSession({ name: "Ann" }), createSession({ name: "Ben" })]);
    await shareGroup(ann, ben);
    const { context, page } = await newVisitor(browser);
    const violations = await watchViolations(page);

    // The secure-key popup derives the key with Argon2id (hash-wasm: WebAssembly).
    await signIn(page, ann.email!, ann.password);
    await page.getByRole("heading", { name: /^Hello/ }).waitFor();
    // Ben makes his keys in a browser of his own, so the conversation is sealed for both.
    const other = await newVisitor(browser);
    await signIn(other.page, ben.email!, ben.password);
    await other.page.getByRole("heading", { name: /^Hello/ }).waitFor();
    await other.context.close();
    const { id } = await startConversation(ann, [ben], { realKeys: true });

    // The TOTP setup draws the server's QR code from a data: URL.
    await gotoApp(page, "/settings/totp");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
    await qr.waitFor();
    expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);

    // An image: encrypted and PUT to the bucket, its thumbnail fetched and shown as a blob: URL.
    await gotoApp(page, `/conversation/${id}`);
    await page.getByTestId("attach-image").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: PNG });
    await page.getByTestId("upload-progress").waitFor({ state: "detached", timeout: 60_000 });
    await page.getByRole("textbox", { name: "Message" }).press("Enter");
    const thumb = page.getByRole("log", { name: "Messages" }).locator('[data-attachment-name="photo.png"] img[data-thumb-state="thumb"]');
    await thumb.waitFor({ timeout: 30_000 });
    expect(await thumb.getAttribute("src")).toMatch(/^blob:/);

    // Not one report: zod is told not to probe for Function() (jitless, lib/trusted-types.ts).
    expect(await violations()).toEqual([]);
    // Mantine's <style> elements went through the default policy (markup-free text) without a report.
    expect(trustedTypesViolations).toEqual([]);
    expect(await page.evaluate("document.querySelectorAll('style[data-mantine-styles]').length")).toBeGreaterThan(0);

    // Markup that an attacker got into the page cannot run script, inline or from elsewhere.
    const ran = await page.evaluate(`(async () => {
      const inline = document.createElement("script");
      // Trusted Types refuse the string already (TypeError); were they off, the CSP would refuse the script.
      try {
        inline.textContent = "window.__injected = true";
        document.body.append(inline);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      const img = document.createElement("img");
      img.setAttribute("src", "data:,");
      try {
        img.setAttribute("onerror", "window.__injected = true");
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
      document.body.append(img);
      await new Promise((r) => setTimeout(r, 300));
      return window.__injected === true;
    })()`);
    expect(ran).toBe(false);
    // Refused by Trusted Types (no policy makes script text) or by the CSP's script-src, whichever the browser asks first.
    expect((await violations()).some((v) => v.startsWith("script-src") || v.startsWith("require-trusted-types-for"))).toBe(true);

    // Trusted Types: a string with markup cannot reach innerHTML, a script or a worker cannot get
    // its source from a string (only the app's own workers, web/src/lib/worker-scripts.ts), and no
    // other policy can be made to launder one.
    const refused = await page.evaluate(`(() => {
      const tries = {
        markup: () => { document.createElement("div").innerHTML = '<img src="data:," onerror="window.__injected = true">'; },
        insert: () => document.body.insertAdjacentHTML("beforeend", "<b>x</b>"),
        scriptSrc: () => { document.createElement("script").src = "/evil.js"; },
        worker: () => new Worker("/evil.js"),
        dataWorker: () => new Worker("data:text/javascript,postMessage(1)"),
        policy: () => window.trustedTypes.createPolicy("attacker", { createHTML: (s) => s }),
        plainText: () => { document.createElement("div").innerHTML = "just text &amp; entities"; },
      };
      return Object.fromEntries(Object.entries(tries).map(([name, run]) => { try { run(); return [name, "allowed"]; } catch (e) { return [name, e.name]; } }));
    })()`);
    expect(refused).toEqual({ markup: "TypeError", insert: "TypeError", scriptSrc: "TypeError", worker: "TypeError", dataWorker: "TypeError", policy: "TypeError", plainText: "allowed" });
    await expect.poll(() => violations().then((v) => v.filter((line) => line.startsWith("require-trusted-types-for") || line.startsWith("trusted-types")).length)).toBeGreaterThan(0);
    // These were on purpose: the watcher of every browser test must not count them.
    trustedTypesViolations.splice(0);
    await context.close();
  });
});
