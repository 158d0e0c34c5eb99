import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { ROOT } from "../support/runtime";

/**
 * The SPA's initial JavaScript: what index.html loads before any lazy route's chunk, that is the
 * entry and, recursively, its static imports (the modulepreloads), read from the build's manifest
 * (web/vite.config.ts: build.manifest). Gzipped at level 9, as Vite reports it; kB are 1000 bytes.
 * Sizes are deterministic, so test/e2e/bundle-size.test.ts can hold the budget.
 */
export const INITIAL_JS_BUDGET_KB = 250;

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export interface ChunkSize {
  file: string;
  name: string;
  bytes: number;
  gzip_bytes: number;
  gzip_kb: number;
}

export interface InitialJs {
  gzip_kb: number;
  bytes: number;
  chunks: ChunkSize[];
  /** Every chunk the build made, for the lazy ones. */
  all_chunks: number;
  lazy_gzip_kb: number;
}

const kb = (bytes: number) => Math.round(bytes / 10) / 100;

function chunkSize(dist: string, chunk: ManifestChunk): ChunkSize {
  const content = readFileSync(join(dist, chunk.file));
  const gzip = gzipSync(content, { level: 9 }).length;
  return { file: chunk.file, name: chunk.name ?? chunk.file, bytes: content.length, gzip_bytes: gzip, gzip_kb: kb(gzip) };
}

/** Measures a built SPA (a folder with .vite/manifest.json). */
export function initialJs(dist: string): InitialJs {
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const initial = new Set<string>();
  const visit = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const next of manifest[key]!.imports ?? []) visit(next);
  };
  entries.forEach(visit);
  const chunks = [...initial].map((key) => chunkSize(dist, manifest[key]!)).sort((a, b) => b.gzip_kb - a.gzip_kb);
  const lazy = Object.keys(manifest)
    .filter((key) => !initial.has(key) && manifest[key]!.file.endsWith(".js"))
    .map((key) => chunkSize(dist, manifest[key]!));
  return {
    gzip_kb: kb(chunks.reduce((sum, c) => sum + c.gzip_bytes, 0)),
    bytes: chunks.reduce((sum, c) => sum + c.bytes, 0),
    chunks,
    all_chunks: chunks.length + lazy.length,
    lazy_gzip_kb: kb(lazy.reduce((sum, c) => sum + c.gzip_bytes, 0)),
  };
}

/** Builds the SPA into a folder of its own (web/dist, which a running runtime may serve, stays) and measures it. */
export function buildAndMeasure(): InitialJs {
  const dist = mkdtempSync(join(tmpdir(), "sealwork-web-"));
  try {
    execFileSync(join(ROOT, "web/node_modules/.bin/vite"), ["build", "--outDir", dist, "--emptyOutDir"], { cwd: join(ROOT, "web"), stdio: "pipe" });
    return initialJs(dist);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

/** `npm run bench` (and `npx tsx test/bench/bundle-size.ts`): bench/results-bundle.json. */
export async function runBundleBench(): Promise<void> {
  const result = { measuredAt: new Date().toISOString(), node: process.version, budget_kb: INITIAL_JS_BUDGET_KB, initial_js: buildAndMeasure() };
  console.log(JSON.stringify({ initial_js_gzip_kb: result.initial_js.gzip_kb, chunks: result.initial_js.chunks.map((c) => `${c.name} ${c.gzip_kb}`) }));
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  const file = join(ROOT, "bench", "results-bundle.json");
  writeFileSync(file, JSON.stringify(result, null, 2) + "\n");
  console.log(`written to ${file}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runBundleBench();
