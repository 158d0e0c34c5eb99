import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

export interface RuntimeInfo {
  url: string;
  setupUrl?: string;
  pid: number;
  dataDir: string;
  env: Record<string, string>;
}

export interface SpawnedRuntime extends RuntimeInfo {
  child: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

async function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts `npm start`'s runtime (without the web build) as its own process, on a free port with
 * a throwaway data folder unless one is given, exactly as a developer would run it.
 */
export async function spawnRuntime(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<SpawnedRuntime> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "sealwork-test-"));
  // A free port is only free until someone takes it: another test's runtime (or its DynamoDB,
  // S3 or SQS stand-in) may bind it between the look and the listen. Then start again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnce(dataDir, options.env);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= 4) throw error;
    }
  }
}

class PortTaken extends Error {}

async function spawnOnce(dataDir: string, env: Record<string, string> | undefined): Promise<SpawnedRuntime> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "packages/local/src/main.ts")], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: "WARN", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));

  const infoFile = join(dataDir, "runtime.json");
  const deadline = Date.now() + 90_000;
  while (!existsSync(infoFile) || !output.includes("ready at")) {
    if (child.exitCode !== null) {
      const message = `The runtime exited with ${child.exitCode}:\n${output}`;
      throw output.includes("could not start: listen EADDRINUSE") ? new PortTaken(message) : new Error(message);
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The runtime did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const info = JSON.parse(readFileSync(infoFile, "utf8")) as Omit<RuntimeInfo, "dataDir">;
  return {
    ...info,
    dataDir,
    child,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
