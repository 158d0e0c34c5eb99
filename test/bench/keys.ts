import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { launchBrowser } from "../support/browser";
import { ROOT } from "../support/runtime";
import { benchPage } from "./browser-bundle";

/**
 * The account-key costs a user feels, measured in Chromium (the same browser the tests use) on
 * the same source the SPA ships (@sealwork/crypto, bundled here with esbuild):
 * - create: generate the X25519 and Ed25519 keys, wrap them under a secure code with the default
 *   Argon2id parameters, and sign the key record (what the popup's *fresh* state does before
 *   its POST);
 * - unlock: Argon2id and the unwrap (the *unlock* and *recovery* states).
 * Figures, not assertions: bench/results-keys.json. BENCH_KEY_RUNS sets the runs (default 7).
 */
const RUNS = Number(process.env.BENCH_KEY_RUNS ?? 7);

const ENTRY = `
import { ARGON2ID_DEFAULTS, accountPublicKeys, generateAccountKeys, signRecord, unwrapAccountKeys, wrapAccountKeys } from "@sealwork/crypto";
const CODE = "bench-secure-code-1";
globalThis.bench = {
  params: ARGON2ID_DEFAULTS,
  async create() {
    const started = performance.now();
    const keys = await generateAccountKeys();
    const envelope = await wrapAccountKeys(keys, CODE);
    const pub = await accountPublicKeys(keys);
    await signRecord(keys.sign.privateKey, { type: "keypair", uid: 1, ...pub, timestamp: 0 });
    return { ms: performance.now() - started, envelope };
  },
  async unlock(envelope) {
    const started = performance.now();
    await unwrapAccountKeys(envelope, CODE);
    return performance.now() - started;
  },
};
`;

export interface Figures {
  median_ms: number;
  min_ms: number;
  max_ms: number;
  samples_ms: number[];
}

/** Median, extremes and every sample of a set of timings, in whole ms. */
export function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n);
  return { median_ms: round(sorted[Math.floor(sorted.length / 2)]!), min_ms: round(sorted[0]!), max_ms: round(sorted.at(-1)!), samples_ms: samples.map(round) };
}

export async function runKeysBench(): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await benchPage(browser, "keys", ENTRY);
    // One warm-up of each (wasm compile, key generation set-up), not counted.
    const warm = (await page.evaluate("bench.create()")) as { envelope: unknown };
    await page.evaluate(`bench.unlock(${JSON.stringify(warm.envelope)})`);
    const create: number[] = [];
    const unlock: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const made = (await page.evaluate("bench.create()")) as { ms: number; envelope: unknown };
      create.push(made.ms);
      unlock.push((await page.evaluate(`bench.unlock(${JSON.stringify(made.envelope)})`)) as number);
    }
    const result = {
      measuredAt: new Date().toISOString(),
      browser: `Chromium ${browser.version()} (headless)`,
      node: process.version,
      cpus: cpus().length,
      runs: RUNS,
      argon2id: await page.evaluate("bench.params"),
      create: figures(create),
      unlock: figures(unlock),
    };
    console.log(JSON.stringify({ create: result.create.median_ms, unlock: result.unlock.median_ms }));
    mkdirSync(join(ROOT, "bench"), { recursive: true });
    const file = join(ROOT, "bench", "results-keys.json");
    writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
    console.log(`written to ${file}`);
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runKeysBench();
