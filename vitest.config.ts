import { defineConfig } from "vitest/config";

/**
 * unit: pure logic, crypto and the CDK stacks (offline).
 * system: everything that talks to a running local runtime (integration over HTTP, the
 * security harnesses, the browser tests and the malicious-server suite). One runtime is started
 * for the whole project by test/support/global-setup.ts, on a free port with a throwaway data folder.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "web/src/**/*.test.ts", "test/unit/**/*.test.ts", "test/stacks/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "system",
          include: ["test/integration/**/*.test.ts", "test/security/**/*.test.ts", "test/e2e/**/*.test.ts", "test/malicious/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/support/global-setup.ts"],
          setupFiles: ["test/support/setup-env.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for work the app really does (fetch, decrypt, render) on a machine
          // shared with the runtime and DynamoDB Local: its 1 s default made a busy machine fail a
          // right answer. Tests assert what appears, not how fast.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          maxWorkers: 2,
          // After the unit project: different worker limits need their own group.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
