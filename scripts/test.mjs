#!/usr/bin/env node
// `npm test`: makes sure Chromium is there for the browser tests (installing Debian's package
// when it may), builds the SPA the runtime serves, runs every vitest project, and closes with a
// plain "N passed, N failed, N skipped" line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  return result.status ?? 1;
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (!isRoot || !hasApt) {
    console.error(`Chromium is missing at ${CHROMIUM}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log("Installing Chromium for the browser tests (apt-get install chromium)...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (run("apt-get", ["update", "-qq"], { env }) !== 0 || run("apt-get", ["install", "-y", "-qq", "chromium"], { env }) !== 0 || !existsSync(CHROMIUM)) {
    console.error("Installing Chromium with apt-get failed; the browser tests cannot run.");
    process.exit(1);
  }
}

ensureChromium();
if (run("npm", ["run", "build:web", "--silent"]) !== 0) process.exit(1);

mkdirSync("test-results", { recursive: true });
const args = ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json", ...process.argv.slice(2)];
const status = run("npx", args);

try {
  const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`\ntests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
  if (report.numTotalTests === 0) {
    console.error("No test ran.");
    process.exit(1);
  }
} catch (error) {
  console.error("Could not read the test report:", error.message);
  process.exit(status || 1);
}
process.exit(status);
