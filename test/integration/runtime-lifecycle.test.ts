import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnRuntime } from "../support/runtime";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: no such process.
    return false;
  }
}

/** The pid of the Java process (DynamoDB Local) serving this data folder, if one runs. */
function javaOf(dataDir: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
    } catch {
      // Gone meanwhile.
      continue;
    }
    if (args[0] === "java" && args.includes(join(dataDir, "dynamodb"))) return Number(entry);
  }
  return undefined;
}

/** This machine's first address that is not loopback (undefined on a machine without one). */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === "IPv4")?.address;
}

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => (res.resume(), resolve(res.statusCode ?? 0)))
      .on("error", reject)
      .end();
  });
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

// Each case starts one or two whole runtimes (DynamoDB Local's JVM among them), which takes
// half a minute each on a loaded two-core machine: the limit is for hangs, not speed.
describe("the local runtime's lifecycle", { timeout: 240_000 }, () => {
  it("stops every child on SIGTERM and keeps its data across a restart", async () => {
    const first = await spawnRuntime({ env: { ADMIN_EMAIL: "keep@example.ch", ADMIN_PASSWORD: "keep-password-1" } });
    const javaPid = javaOf(first.dataDir)!;
    expect(alive(javaPid)).toBe(true);
    const lookup = await fetch(`${first.url}/api/users?lookup=keep%40example.ch`).then((r) => r.json() as Promise<{ id: number }>);

    expect(await first.stop("SIGTERM")).toBe(0);
    expect(alive(javaPid)).toBe(false);
    expect(alive(first.pid)).toBe(false);
    expect(existsSync(join(first.dataDir, "runtime.json"))).toBe(false);

    const second = await spawnRuntime({ dataDir: first.dataDir });
    try {
      expect(second.output()).not.toContain("/setup#");
      const again = await fetch(`${second.url}/api/users?lookup=keep%40example.ch`).then((r) => r.json() as Promise<{ id: number }>);
      expect(again.id).toBe(lookup.id);
      const login = await fetch(`${second.url}/api/users/${again.id}/login`, { method: "POST", body: JSON.stringify({ password: "keep-password-1" }) });
      expect(login.status).toBe(200);
    } finally {
      expect(await second.stop("SIGINT")).toBe(0);
    }
  });

  it("with HOST=0.0.0.0 serves the app to the network but the outbox only to this machine; stops Java when its data folder goes", async () => {
    const runtime = await spawnRuntime({ env: { HOST: "0.0.0.0" } });
    try {
      const port = new URL(runtime.url).port;
      const address = externalAddress();
      if (address) {
        expect(await status(`http://${address}:${port}/api/health`)).toBe(200);
        expect(await status(`http://${address}:${port}/dev/outbox.json`)).toBe(404);
      }
      expect(await status(`http://127.0.0.1:${port}/dev/outbox.json`)).toBe(200);

      const javaPid = javaOf(runtime.dataDir)!;
      expect(alive(javaPid)).toBe(true);
      // The runtime keeps writing into it meanwhile: retry what it refills.
      rmSync(runtime.dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      expect(await until(() => runtime.child.exitCode !== null, 20_000)).toBe(true);
      expect(runtime.child.exitCode).toBe(1);
      expect(runtime.output()).toContain("was removed");
      expect(await until(() => !alive(javaPid), 10_000)).toBe(true);
    } finally {
      await runtime.stop("SIGKILL");
    }
  });

  it("takes DynamoDB Local with it when it is killed outright (SIGKILL)", async () => {
    const runtime = await spawnRuntime();
    const javaPid = javaOf(runtime.dataDir)!;
    expect(alive(javaPid)).toBe(true);
    await runtime.stop("SIGKILL");
    expect(await until(() => !alive(javaPid), 10_000)).toBe(true);
  });
});
