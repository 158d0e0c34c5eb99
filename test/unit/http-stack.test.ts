import { instanceRoutes, userRoutes } from "@sealwork/contracts";
import { api } from "@sealwork/core";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { beforeAll, describe, expect, it } from "vitest";
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
