import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./runtime";

/**
 * Builds the SPA into a folder of its own with `env` (the build settings of web/build-settings.ts,
 * for example secure codes switched off), for a runtime started with WEB_DIR pointing at it.
 */
export async function buildWeb(env: Record<string, string>): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "sealwork-web-"));
  await promisify(execFile)(process.execPath, [join(ROOT, "web/node_modules/vite/bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"], {
    cwd: join(ROOT, "web"),
    env: { ...process.env, ...env },
  });
  return outDir;
}
