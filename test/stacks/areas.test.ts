import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { AREA_ENTRIES, areaEntrySource, staleAreaEntries } from "../../functions/area-entries";
import { dispatch, type ApiHandler } from "../../functions/dispatch";
import { areaOf, routesByArea, servedRoutes } from "../../functions/routes";

function event(routeKey: string): APIGatewayProxyEventV2 {
  const [method, path] = routeKey.split(" ") as [string, string];
  return {
    version: "2.0",
    routeKey,
    rawPath: path,
    rawQueryString: "",
    headers: {},
    isBase64Encoded: false,
    requestContext: { http: { method, path, sourceIp: "127.0.0.1", protocol: "HTTP/1.1", userAgent: "" }, requestId: "req-1" } as APIGatewayProxyEventV2["requestContext"],
  };
}
const context = { functionName: "area" } as Context;

describe("areas", () => {
  it("are the handler's folder under functions/api/, or the area the table merges it into", () => {
    expect(areaOf("functions/api/conversations/list.handler")).toBe("conversations");
    expect(areaOf("functions/api/attachments/start.handler")).toBe("conversations");
    expect(areaOf("functions/api/keypairs/get.handler")).toBe("keys");
    expect(areaOf("functions/api/backup/load.handler")).toBe("keys");
    expect(areaOf("functions/api/verification/totp-setup.handler")).toBe("users");
    expect(areaOf("functions/api/health.handler")).toBe("instance");
    expect(areaOf("functions/api/groups/create.handler")).toBe("groups");
    expect(() => areaOf("functions/workers/mail.handler")).toThrow(/functions\/api/);
  });

  it("serve every route, the POST entry of a _method route from the same area", () => {
    const served = servedRoutes();
    expect([...routesByArea().keys()].sort()).toEqual(["conversations", "drive", "groups", "identities", "instance", "invites", "keys", "motes", "pickups", "users"]);
    for (const route of served) expect(route.area, route.key).toBe(areaOf(route.handler));
    const overrides = served.filter((route) => route.key !== `${route.method} ${route.path}`);
    expect(overrides.length).toBeGreaterThan(0);
    for (const route of overrides) expect(route.area).toBe(served.find((r) => r.key === route.key && r.method !== "POST")!.area);
  });

  it(`have entries in ${AREA_ENTRIES}/ that match the route table (else run \`npm run areas\`)`, () => {
    expect(staleAreaEntries()).toEqual([]);
  });

  it("import exactly their routes' handler modules and map every route key to its handler", () => {
    const [area, routes] = [...routesByArea()].find(([name]) => name === "keys")!;
    const source = areaEntrySource(area, routes);
    const imports = [...source.matchAll(/from "\.\.\/api\/([^"]+)"/g)].map((m) => `functions/api/${m[1]}.handler`);
    expect(imports.sort()).toEqual([...new Set(routes.map((r) => r.handler))].sort());
    for (const route of routes) expect(source).toContain(`"${route.method} ${route.path}": `);
    expect(source).not.toContain("@sealwork/core\"");
  });
});

describe("the dispatcher", () => {
  const handler = dispatch({
    "GET /api/things/{id}": async (e, c) => ({ statusCode: 200, body: `${e.routeKey} in ${c.functionName}` }),
    "POST /api/things/{id}": async () => ({ statusCode: 201 }),
  } satisfies Record<string, ApiHandler>);

  it("calls the handler of the event's route key with the event and context", async () => {
    expect(await handler(event("GET /api/things/{id}"), context)).toEqual({ statusCode: 200, body: "GET /api/things/{id} in area" });
    expect((await handler(event("POST /api/things/{id}"), context)).statusCode).toBe(201);
  });

  it("answers a route key it does not serve with the app's JSON 404", async () => {
    for (const key of ["DELETE /api/things/{id}", "GET /api/other", "$default", "toString", "__proto__"]) {
      const result = await handler(event(key), context);
      expect(result.statusCode, key).toBe(404);
      expect(JSON.parse(result.body!)).toEqual({ code: "not_found", message: "Requested content not found." });
      expect(result.headers).toMatchObject({ "content-type": "application/json; charset=utf-8", "x-request-id": "req-1" });
    }
  });
});
