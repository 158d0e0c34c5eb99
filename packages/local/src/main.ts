import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { writePrivateFile } from "./exposure";
import { ROOT } from "./paths";
import { startRuntime, type Runtime } from "./runtime";

/**
 * `npm start`: the whole app on one port (PORT, default 3000; on loopback unless HOST says
 * otherwise) with its data under DATA_DIR (default .data/). Ctrl+C, SIGTERM and SIGHUP stop every
 * child process before exiting; so does a crash, which exits with 1.
 */
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST || undefined;
const dataDir = resolve(process.env.DATA_DIR ?? resolve(ROOT, ".data"));
const infoFile = join(dataDir, "runtime.json");

/** Set once started; a signal or a crash during the start finds it unset. */
const current: { runtime?: Runtime } = {};
let stopping = false;

async function shutdown(reason: string, code: number) {
  if (stopping) return;
  stopping = true;
  console.log(`[runtime] ${reason}: stopping`);
  // Whatever happens while stopping, the process ends (and DynamoDB Local with it, see dynamodb.ts).
  setTimeout(() => process.exit(code || 1), 15_000).unref();
  await current.runtime?.stop();
  rmSync(infoFile, { force: true });
  process.exit(code);
}

function crash(error: unknown) {
  console.error("[runtime] crashed:", error);
  void shutdown("crash", 1);
}
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
process.on("SIGINT", () => void shutdown("SIGINT", 0));
process.on("SIGTERM", () => void shutdown("SIGTERM", 0));
process.on("SIGHUP", () => void shutdown("SIGHUP", 0));

const runtime = await startRuntime({
  port,
  host,
  dataDir,
  // Another build of the SPA (a test's, made with other build settings: web/build-settings.ts).
  webDir: process.env.WEB_DIR || undefined,
  adminEmail: process.env.ADMIN_EMAIL,
  adminPassword: process.env.ADMIN_PASSWORD,
  adminName: process.env.ADMIN_NAME,
  onFatal: (error) => {
    console.error(`[runtime] cannot go on: ${error.message}`);
    void shutdown("fatal", 1);
  },
}).catch((error: unknown) => {
  console.error("[runtime] could not start:", error instanceof Error ? error.message : error);
  process.exit(1);
});

current.runtime = runtime;

// Tests and benchmarks find the running instance here. It holds the token-signing key and the
// setup token: readable by this user only.
writePrivateFile(infoFile, JSON.stringify({ url: runtime.url, setupUrl: runtime.setupUrl, pid: process.pid, env: runtime.env }, null, 2));
console.log(`[runtime] ready at ${runtime.url} (data in ${dataDir}, outbox at ${runtime.url}/dev/outbox)`);
