import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";

describe("first administrator on the shared instance", () => {
  it("refuses the setup call once the instance has users", async () => {
    const reply = await http("POST", "/api/instance/setup", { body: { token: "x".repeat(32), name: "Eve", email: "eve@example.ch", password: "eve-password-1" } });
    expect(reply.status).toBe(403);
  });
});

describe("first administrator through the one-time setup link", () => {
  let runtime: SpawnedRuntime;
  beforeAll(async () => {
    runtime = await spawnRuntime();
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  const call = (path: string, body?: unknown) =>
    fetch(runtime.url + path, { method: body ? "POST" : "GET", headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));

  it("prints a link on an empty instance, accepts its token once, and then is closed", async () => {
    expect(runtime.output()).toContain("/setup#");
    const token = runtime.setupUrl!.split("#")[1]!;
    expect((await call("/api/instance")).body).toMatchObject({ needsSetup: true });

    const admin = { name: "Setup Admin", email: "setup.admin@example.ch", password: "setup-password-1" };
    expect((await call("/api/instance/setup", { ...admin, token: "wrong-token" })).status).toBe(403);
    const created = await call("/api/instance/setup", { ...admin, token });
    expect(created).toMatchObject({ status: 200, body: { name: "Setup Admin", hasAdminRole: true, hasSuperAdminRole: true, api_token: expect.any(String) } });

    expect((await call("/api/instance/setup", { ...admin, email: "second@example.ch", token })).body).toMatchObject({ code: "setup_closed" });
    expect((await call("/api/instance")).body).toMatchObject({ needsSetup: false });
    expect((await call(`/api/users/${created.body.id}/login`, { password: admin.password })).status).toBe(200);
  });
});
