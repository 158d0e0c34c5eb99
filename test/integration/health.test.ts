import { describe, expect, it } from "vitest";
import { http } from "../support/api";

describe("GET /api/health", () => {
  it("reports table, bucket and queue as ok", async () => {
    const reply = await http("GET", "/api/health");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: "ok", table: "ok", bucket: "ok", queue: "ok" });
    expect(reply.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });

  it("answers unknown API paths with a JSON 404 and wrong methods with 405", async () => {
    expect(await http("GET", "/api/nothing-here")).toMatchObject({ status: 404, body: { code: "not_found", message: "Requested content not found." } });
    expect(await http("DELETE", "/api/health")).toMatchObject({ status: 405, body: { code: "method_not_allowed" } });
  });

  it("serves the SPA for app routes", async () => {
    const reply = await http("GET", "/settings/");
    expect(reply.status).toBe(200);
    expect(String(reply.body)).toContain('<div id="root">');
  });
});

describe("GET /api/instance", () => {
  it("gives the public instance settings, and nothing about secure codes (the SPA build's setting)", async () => {
    const reply = await http("GET", "/api/instance");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ title: "Sealwork", idleTimeout: 0, indexChars: 5, needsSetup: false });
    expect(reply.body).not.toHaveProperty("disableSecurecode");
  });
});
