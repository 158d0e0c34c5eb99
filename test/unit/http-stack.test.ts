import { instanceRoutes, userRoutes } from "@sealwork/contracts";
import { api, logger, resetConfig } from "@sealwork/core";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { unitEnv } from "./env";

function event(method: string, body?: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    version: "2.0",
    routeKey: `${method} /x`,
    rawPath: "/x",
    rawQueryString: "",
    headers: { origin: "http://localhost:3000", ...headers },
    body,
    isBase64Encoded: false,
    pathParameters: { id: "5" },
    requestContext: { http: { method, path: "/x", sourceIp: "127.0.0.1", protocol: "HTTP/1.1", userAgent: "" }, requestId: "req-1" } as APIGatewayProxyEventV2["requestContext"],
  };
}
const context = { getRemainingTimeInMillis: () => 10_000 } as Context;

describe("the HTTP middleware stack", () => {
  beforeAll(unitEnv);

  const setup = api(instanceRoutes, "POST /api/instance/setup", async ({ body }) => ({
    id: 1,
    name: body.name,
    email: body.email,
    phone: null,
    api_token: "t",
    hasAdminRole: true,
    hasSuperAdminRole: true,
    recoveryTOTP: false,
  }));

  it("validates the body against the contract and answers 422 with field errors", async () => {
    const result = await setup(event("POST", JSON.stringify({ token: "t", name: "", email: "no", password: "x" })), context);
    expect(result.statusCode).toBe(422);
    const body = JSON.parse(result.body!) as { code: string; fields: Record<string, string[]> };
    expect(body.code).toBe("validation");
    expect(Object.keys(body.fields).sort()).toEqual(["email", "name", "password"]);
  });

  it("answers malformed JSON with 400 and does not echo it", async () => {
    const result = await setup(event("POST", '{"token": "secret-canary'), context);
    expect(result.statusCode).toBe(400);
    expect(result.body).not.toContain("secret-canary");
  });

  it("passes parsed input to the domain call, with CORS and a request id", async () => {
    const result = await setup(event("POST", JSON.stringify({ token: "t", name: " Ada ", email: "ada@example.ch", password: "long-enough-1" })), context);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toMatchObject({ name: "Ada" });
    expect(result.headers).toMatchObject({ "x-request-id": "req-1", "Access-Control-Allow-Origin": "http://localhost:3000" });
  });

  it("turns an unexpected error into a generic 500 without details", async () => {
    const broken = api(instanceRoutes, "GET /api/instance", async () => {
      throw new Error("db password is hunter2");
    });
    const result = await broken(event("GET"), context);
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body!)).toEqual({ code: "internal", message: "Something went wrong on our side. Please try again later." });
  });

  it("requires a token for member routes and honours _method only where declared", async () => {
    const update = api(userRoutes, "PATCH /api/users/{id}", async () => {
      throw new Error("must not be reached");
    });
    expect((await update(event("PATCH", JSON.stringify({ name: "x" })), context)).statusCode).toBe(401);
    expect((await update(event("POST", JSON.stringify({ name: "x" })), context)).statusCode).toBe(405);
    expect((await update(event("POST", JSON.stringify({ _method: "patch", name: "x" })), context)).statusCode).toBe(401);
    expect((await update(event("PATCH", "{}", { authorization: "Bearer forged" }), context)).statusCode).toBe(401);
  });
});

describe("the request log", () => {
  beforeAll(unitEnv);
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.LOG_REQUESTS;
    delete process.env.LOG_SLOW_MS;
    resetConfig();
  });

  /** The request lines (not the unhandled-error line) each level got while `run` ran. */
  async function lines(run: () => Promise<unknown>) {
    vi.restoreAllMocks();
    const quiet = () => undefined;
    const spies = { info: vi.spyOn(logger, "info").mockImplementation(quiet), warn: vi.spyOn(logger, "warn").mockImplementation(quiet), error: vi.spyOn(logger, "error").mockImplementation(quiet) };
    await run();
    const of = (spy: (typeof spies)["info"]) => spy.mock.calls.filter(([message]) => message === "request" || message === "slow request").map(([, line]) => line as unknown as { status: number });
    return { info: of(spies.info), warn: of(spies.warn), error: of(spies.error) };
  }

  const quick = api(instanceRoutes, "GET /api/instance", async () => ({ title: "t", name: "n" }) as never);
  const slow = api(instanceRoutes, "GET /api/instance", async () => {
    await new Promise((r) => setTimeout(r, 30));
    return { title: "t", name: "n" } as never;
  });
  const broken = api(instanceRoutes, "GET /api/instance", async () => {
    throw new Error("boom");
  });
  const refusing = api(userRoutes, "PATCH /api/users/{id}", async () => {
    throw new Error("must not be reached");
  });

  it("leaves no line for a quick success (a poll a second per open tab), one for a refusal, an error line for a failure", async () => {
    expect(await lines(() => quick(event("GET"), context))).toEqual({ info: [], warn: [], error: [] });
    const refused = await lines(() => refusing(event("PATCH", "{}"), context));
    expect(refused.info).toEqual([expect.objectContaining({ status: 401, code: "unauthenticated" })]);
    expect(refused.warn.length + refused.error.length).toBe(0);
    const failed = await lines(() => broken(event("GET"), context));
    expect(failed.error).toEqual([expect.objectContaining({ status: 500, code: "internal" })]);
    expect(failed.info.length + failed.warn.length, JSON.stringify(failed)).toBe(0);
  });

  it("warns about a request slower than LOG_SLOW_MS", async () => {
    process.env.LOG_SLOW_MS = "20";
    resetConfig();
    const logged = await lines(() => slow(event("GET"), context));
    expect(logged.warn).toEqual([expect.objectContaining({ status: 200, route: "GET /api/instance" })]);
    expect((logged.warn[0] as unknown as { ms: number }).ms).toBeGreaterThanOrEqual(20);
  });

  it("logs every request with LOG_REQUESTS=all", async () => {
    process.env.LOG_REQUESTS = "all";
    resetConfig();
    expect((await lines(() => quick(event("GET"), context))).info).toEqual([expect.objectContaining({ status: 200, route: "GET /api/instance" })]);
  });
});
