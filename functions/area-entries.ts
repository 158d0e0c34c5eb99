import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { handlerModule, routesByArea, type ServedRoute } from "./routes";

/**
 * Each area's Lambda runs an entry file, functions/areas/<area>.ts, that imports exactly the
 * handler modules of that area's routes (so esbuild bundles those and nothing else) and hands
 * the dispatcher its route key → handler map. The entries are derived from the route table and
 * committed: `npm run areas` rewrites them, and a unit test (test/stacks/areas.test.ts) and the
 * local runtime's start refuse entries that have drifted from the table.
 */
export const AREA_ENTRIES = "functions/areas";

/** The Lambda handler of an area: "functions/areas/keys.handler". */
export function areaHandler(area: string): string {
  return `${AREA_ENTRIES}/${area}.handler`;
}

export function areaEntrySource(area: string, routes: ServedRoute[]): string {
  const names = new Map<string, string>();
  const imports: string[] = [];
  for (const { handler } of routes) {
    if (names.has(handler)) continue;
    const { file, exportName } = handlerModule(handler);
    const module = file.replace(/^functions\/api\//, "");
    const name = camel(exportName === "handler" ? module : `${module}-${exportName}`);
    names.set(handler, name);
    imports.push(`import { ${exportName} as ${name} } from "../api/${module}";`);
  }
  return [
    `// Generated from functions/routes.ts by \`npm run areas\`: do not edit. The "${area}" area's`,
    "// Lambda (stacks/api.ts) and the local runtime serve these routes through functions/dispatch.ts.",
    'import { dispatch } from "../dispatch";',
    ...imports,
    "",
    "export const handler = dispatch({",
    ...routes.map((route) => `  "${route.method} ${route.path}": ${names.get(route.handler)},`),
    "});",
    "",
  ].join("\n");
}

/** "keypairs/get-one" → "keypairsGetOne". */
function camel(path: string): string {
  return path.replace(/[/-]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

const defaultRoot = () => resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Every entry as the route table wants it: file name → source. */
function wantedEntries(): Map<string, string> {
  const wanted = new Map<string, string>();
  for (const [area, routes] of routesByArea()) wanted.set(`${area}.ts`, areaEntrySource(area, routes));
  return wanted;
}

function presentEntries(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith(".ts"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The entries that differ from the route table: missing, changed or left over (file names). */
export function staleAreaEntries(root = defaultRoot()): string[] {
  const dir = join(root, AREA_ENTRIES);
  const wanted = wantedEntries();
  const stale = presentEntries(dir).filter((name) => !wanted.has(name));
  for (const [name, source] of wanted) {
    let current: string | undefined;
    try {
      current = readFileSync(join(dir, name), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (current !== source) stale.push(name);
  }
  return stale.sort();
}

/** Rewrites the entries from the route table and removes those of areas that are gone. */
export function writeAreaEntries(root = defaultRoot()): string[] {
  const dir = join(root, AREA_ENTRIES);
  const stale = staleAreaEntries(root);
  const wanted = wantedEntries();
  mkdirSync(dir, { recursive: true });
  for (const name of stale) {
    const source = wanted.get(name);
    if (source === undefined) rmSync(join(dir, name));
    else writeFileSync(join(dir, name), source);
  }
  return stale;
}
