import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "./paths";
import { startRuntime } from "./runtime";

/**
 * `npm start`: the whole app on one port (PORT, default 3000) with its data under DATA_DIR
 * (default .data/). Ctrl+C or SIGTERM stops every child process before exiting.
 */
const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? resolve(ROOT, ".data"));

const runtime = await startRuntime({
  port,
  dataDir,
  adminEmail: process.env.ADMIN_EMAIL,
  adminPassword: process.env.ADMIN_PASSWORD,
  adminName: process.env.ADMIN_NAME,
}).catch((error: unknown) => {
  console.error("[runtime] could not start:", error instanceof Error ? error.message : error);
  process.exit(1);
});

// Tests and benchmarks find the running instance here.
const infoFile = join(dataDir, "runtime.json");
writeFileSync(infoFile, JSON.stringify({ url: runtime.url, setupUrl: runtime.setupUrl, pid: process.pid, env: runtime.env }, null, 2));
console.log(`[runtime] ready at ${runtime.url} (data in ${dataDir}, outbox at ${runtime.url}/dev/outbox)`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[runtime] ${signal}: stopping`);
  await runtime.stop();
  rmSync(infoFile, { force: true });
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGHUP", () => void shutdown("SIGHUP"));
