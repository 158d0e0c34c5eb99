import { dirname, join, resolve } from "node:path";
import { type Plugin, build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { ROOT } from "../support/runtime";

/** What Vite would replace in the SPA's modules (an object: a setting the bench does not name reads as unset). */
const SPA_DEFINE = { "import.meta.env": JSON.stringify({ VITE_API_URL: "", MODE: "production", DEV: false, PROD: true }), "process.env.NODE_ENV": '"production"' };

/**
 * The SPA's workers (a `?worker&url` import, which Vite builds into a script of the site): bundled
 * here too, and served to the page as a blob: URL, so a bench runs the SPA's modules with their
 * workers as the SPA does.
 */
const workerUrls: Plugin = {
  name: "worker-url",
  setup(bench) {
    bench.onResolve({ filter: /\?worker&url$/ }, (args) => ({ path: resolve(args.resolveDir, args.path.replace(/\?worker&url$/, "")), namespace: "worker-url" }));
    bench.onLoad({ filter: /.*/, namespace: "worker-url" }, async (args) => {
      const file = /\.[jt]s$/.test(args.path) ? args.path : `${args.path}.ts`;
      const worker = await build({ entryPoints: [file], bundle: true, format: "iife", target: "es2022", platform: "browser", define: SPA_DEFINE, write: false });
      return { contents: `export default URL.createObjectURL(new Blob([${JSON.stringify(worker.outputFiles[0]!.text)}], { type: "text/javascript" }));`, loader: "js", resolveDir: dirname(file) };
    });
  },
};

/** Bundles an entry (TypeScript, resolved from the repository root) for a page of headless Chromium. */
export async function browserBundle(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "iife",
    target: "es2022",
    platform: "browser",
    define: SPA_DEFINE,
    plugins: [workerUrls],
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/**
 * Bundles an entry that draws the SPA's React components (TSX, resolved from web/, where the SPA's
 * packages are), with the CSS they import (CSS modules as Vite scopes them), for a page of headless
 * Chromium. Nothing of it goes into the shipped SPA.
 */
export async function spaBundle(entry: string): Promise<{ js: string; css: string }> {
  const result = await build({
    stdin: { contents: entry, resolveDir: join(ROOT, "web"), loader: "tsx" },
    bundle: true,
    format: "iife",
    target: "es2022",
    platform: "browser",
    jsx: "automatic",
    define: SPA_DEFINE,
    plugins: [workerUrls],
    loader: { ".module.css": "local-css" },
    // One React, as Vite's dedupe makes it (the repository root holds another copy).
    alias: { react: join(ROOT, "web", "node_modules", "react"), "react-dom": join(ROOT, "web", "node_modules", "react-dom") },
    // Named for the CSS output; nothing is written.
    outdir: join(ROOT, "bench", "spa-bundle"),
    write: false,
  });
  const text = (ending: string) => result.outputFiles.find((file) => file.path.endsWith(ending))?.text ?? "";
  return { js: text(".js"), css: text(".css") };
}

/**
 * A blank page of `browser` at http://localhost/bench-<name>.html (a localhost origin is a secure
 * context, as WebCrypto requires; nothing listens there) with `entry` bundled into it (by `bundle`:
 * browserBundle, or spaBundle with its styles).
 */
export async function benchPage(browser: Browser, name: string, entry: string, bundle: (entry: string) => Promise<string | { js: string; css: string }> = browserBundle): Promise<Page> {
  const built = await bundle(entry);
  const { js, css } = typeof built === "string" ? { js: built, css: "" } : built;
  const page = await browser.newPage();
  const url = `http://localhost/bench-${name}.html`;
  await page.route(url, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>bench</title>" }));
  await page.goto(url);
  if (css) await page.addStyleTag({ content: css });
  await page.addScriptTag({ content: js });
  return page;
}

/**
 * In-page helpers of the crypto benches (their entries import accountPublicKeys,
 * generateAccountKeys and identityKeys): `person(userId)`, fresh account keys as identity keys
 * (`me`) and as the verified key others seal for (`key`); `lookup(people)`, a KeysOf over them.
 */
export const PEOPLE = `
async function person(userId) {
  const keys = await generateAccountKeys();
  const me = await identityKeys(userId, keys);
  const pub = await accountPublicKeys(keys);
  return { me, key: { userId, keyId: me.keyId, seq: 0, ...pub, created: 0 } };
}

function lookup(people) {
  const known = new Map(people.map((p) => [p.key.userId + ":" + p.key.keyId, p.key]));
  return async (userId, keyId) => {
    const key = known.get(userId + ":" + keyId);
    if (!key) throw new Error("unknown key");
    return key;
  };
}
`;
