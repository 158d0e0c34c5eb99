import { build } from "esbuild";
import { ROOT } from "../support/runtime";

/** Bundles an entry (TypeScript, resolved from the repository root) for a page of headless Chromium. */
export async function browserBundle(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "iife",
    target: "es2022",
    platform: "browser",
    // What Vite would replace in the SPA's modules.
    define: { "import.meta.env.VITE_API_URL": '""', "process.env.NODE_ENV": '"production"' },
    write: false,
  });
  return result.outputFiles[0]!.text;
}
