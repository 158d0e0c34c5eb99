import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Metafile } from "esbuild";
import { AREA_ENTRIES } from "../functions/area-entries";
import { handlerModule, routesByArea, workers } from "../functions/routes";
import { nodejsBundling, type NodejsBundling } from "../stacks/bundling";

/**
 * `npm run bench:bundles` (also the first step of `npm run bench`): bundles each area's entry and
 * each worker the way `sst deploy` does and writes each bundle's minified size, its largest
 * inputs and its size per package to bench/results-bundles.json.
 *
 * "The way SST does": SST v2's own esbuild (node_modules/sst's copy) with the options of
 * node_modules/sst/runtime/handlers/node.js for ES modules, plus the app's `nodejs` props
 * (stacks/bundling.ts).
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const require = createRequire(import.meta.url);
const esbuild = createRequire(require.resolve("sst/runtime/handlers/node.js"))("esbuild") as typeof import("esbuild");

/** What SST always leaves out of a Node bundle (forceExternal in SST's Node handler). */
const SST_EXTERNAL = ["sharp", "pg-native"];
const SST_ESM_BANNER = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
  "",
].join("\n");

export interface Bundle {
  /** "area conversations" or "worker mail". */
  name: string;
  entry: string;
  /** The minified .mjs file Lambda loads (the source map is uploaded apart from the code). */
  bytes: number;
  largestInputs: Array<{ input: string; bytes: number }>;
  /** Bytes in the bundle per npm package, or per workspace folder. */
  packages: Record<string, number>;
  /** The bundle itself, for the smoke test that loads and calls it (test/stacks/bundles.test.ts). */
  code: string;
  /** Each input's imports and its bytes in the bundle (0 when esbuild left it out), for the tests. */
  inputs: Record<string, { imports: string[]; bytes: number }>;
}

/** Bundles one Lambda handler ("functions/areas/keys.handler") in memory, as SST would deploy it. */
export async function bundle(name: string, handler: string, nodejs: NodejsBundling): Promise<Bundle> {
  const entry = `${handlerModule(handler).file}.ts`;
  const { external, ...override } = nodejs.esbuild;
  const result = await esbuild.build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    platform: "node",
    external: [...SST_EXTERNAL, ...external],
    keepNames: true,
    bundle: true,
    logLevel: "silent",
    metafile: true,
    format: nodejs.format,
    target: "esnext",
    mainFields: ["module", "main"],
    banner: { js: SST_ESM_BANNER },
    outfile: join(ROOT, ".sst/bundle-sizes", `${handlerModule(handler).file}.mjs`),
    sourcemap: true,
    minify: nodejs.minify,
    ...override,
    write: false,
  });
  const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith(".mjs"))!;
  const code = result.outputFiles.find((file) => file.path.endsWith(".mjs"))!.text;
  return {
    name,
    entry,
    bytes: output.bytes,
    largestInputs: Object.entries(output.inputs)
      .map(([input, { bytesInOutput }]) => ({ input, bytes: bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 10),
    packages: byPackage(output.inputs),
    code,
    inputs: Object.fromEntries(
      Object.entries(result.metafile.inputs).map(([input, { imports }]) => [input, { imports: imports.map((i) => i.path), bytes: output.inputs[input]?.bytesInOutput ?? 0 }]),
    ),
  };
}

function byPackage(inputs: Metafile["outputs"][string]["inputs"]): Record<string, number> {
  const sizes = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split("/").slice(0, 2).join("/");
    sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput);
  }
  return Object.fromEntries([...sizes].sort((a, b) => b[1] - a[1]));
}

/** Every area's Lambda and every worker, bundled. */
export async function measureBundles(): Promise<Bundle[]> {
  const bundles: Bundle[] = [];
  for (const area of routesByArea().keys()) bundles.push(await bundle(`area ${area}`, `${AREA_ENTRIES}/${area}.handler`, nodejsBundling()));
  for (const [kind, worker] of Object.entries(workers)) bundles.push(await bundle(`worker ${kind}`, worker.handler, nodejsBundling()));
  return bundles;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bundles = await measureBundles();
  for (const b of bundles) {
    const inputs = b.largestInputs.slice(0, 3).map((i) => `${i.input} ${kb(i.bytes)}`).join(", ");
    const packages = Object.entries(b.packages).slice(0, 5).map(([name, bytes]) => `${name} ${kb(bytes)}`).join(", ");
    console.log(`${b.name.padEnd(26)} ${kb(b.bytes).padStart(9)}\n  largest inputs:   ${inputs}\n  largest packages: ${packages}`);
  }
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  const file = join(ROOT, "bench", "results-bundles.json");
  const figures = bundles.map(({ code: _code, inputs: _inputs, ...figures }) => figures);
  writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), esbuild: esbuild.version, bundles: figures }, null, 2)}\n`);
  console.log(`written to ${file}`);
}
