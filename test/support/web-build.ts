import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./runtime";

/**
 * Builds the SPA into a folder of its own with `env` (the build settings of web/build-settings.ts,
 * for example secure codes switched off), for a runtime started with WEB_DIR pointing at it; or
 * in another Vite `mode` (TEST_CHECKS_MODE: the malicious-server suite's build with its switches).
 */
export async function buildWeb(env: Record<string, string>, options: { mode?: string } = {}): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "sealwork-web-"));
  const mode = options.mode ? ["--mode", options.mode] : [];
  await promisify(execFile)(process.execPath, [join(ROOT, "web/node_modules/vite/bin/vite.js"), "build", ...mode, "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"], {
    cwd: join(ROOT, "web"),
    env: { ...process.env, ...env },
  });
  return outDir;
}
