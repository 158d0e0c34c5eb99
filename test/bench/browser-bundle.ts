import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { ROOT } from "../support/runtime";

/** Bundles an entry (TypeScript, resolved from the repository root) for a page of headless Chromium. */
export async function browserBundle(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "iife",
    target: "es2022",
    platform: "browser",
    // What Vite would replace in the SPA's modules (an object: a setting the bench does not name reads as unset).
    define: { "import.meta.env": JSON.stringify({ VITE_API_URL: "", MODE: "production", DEV: false, PROD: true }), "process.env.NODE_ENV": '"production"' },
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/**
 * A blank page of `browser` at http://localhost/bench-<name>.html (a localhost origin is a secure
 * context, as WebCrypto requires; nothing listens there) with `entry` bundled into it.
 */
export async function benchPage(browser: Browser, name: string, entry: string): Promise<Page> {
  const script = await browserBundle(entry);
  const page = await browser.newPage();
  const url = `http://localhost/bench-${name}.html`;
  await page.route(url, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>bench</title>" }));
  await page.goto(url);
  await page.addScriptTag({ content: script });
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
