import type { TestProject } from "vitest/node";
import { spawnRuntime } from "./runtime";

export const ADMIN = { email: "first.admin@example.ch", password: "first-admin-pw-1", name: "First Admin" };

declare module "vitest" {
  export interface ProvidedContext {
    runtime: { url: string; dataDir: string; env: Record<string, string> };
  }
}

/** One runtime for the whole system project, started as `npm start` would, with a first admin. */
export default async function setup(project: TestProject) {
  const runtime = await spawnRuntime({
    env: {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_NAME: ADMIN.name,
      // Every test signs in from 127.0.0.1; the per-client limit has a test of its own.
      LOGIN_MAX_FAILURES_PER_IP: "100000",
      ...(process.env.RUNTIME_LOG ? { POWERTOOLS_LOG_LEVEL: "INFO", LOG_REQUESTS: "all" } : {}),
    },
  });
  project.provide("runtime", { url: runtime.url, dataDir: runtime.dataDir, env: runtime.env });
  return async () => {
    const code = await runtime.stop();
    if (process.env.RUNTIME_LOG) (await import("node:fs")).writeFileSync(process.env.RUNTIME_LOG, runtime.output());
    if (code !== 0) console.error(`runtime exited with ${code}:\n${runtime.output().slice(-3000)}`);
  };
}
