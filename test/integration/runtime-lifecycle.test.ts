import { existsSync, readFileSync } from "node:fs";
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

describe("the local runtime's lifecycle", () => {
  it("stops every child on SIGTERM and keeps its data across a restart", async () => {
    const first = await spawnRuntime({ env: { ADMIN_EMAIL: "keep@example.ch", ADMIN_PASSWORD: "keep-password-1" } });
    const javaPid = Number(readFileSync(join(first.dataDir, "dynamodb", "java.pid"), "utf8"));
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
});
