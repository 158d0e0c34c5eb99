import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnRuntime, type SpawnedRuntime } from "../support/runtime";
import { fillPath, overrideBody, routeCases, type RouteCase } from "../support/routes";

/**
 * Sends every route malformed bodies, wrong types, huge strings and bad ids, as an anonymous
 * caller and as a super admin. Only inputs the route's own contract rejects are sent, so none
 * may write anything: the table must read the same afterwards (rate-limit counters aside), and
 * no answer may be a 5xx or anything but a JSON error.
 */
const HUGE = "x".repeat(200_000);
const WRONG_VALUES: unknown[] = [null, true, 0, -1, 1.5, 1e308, "", " ", HUGE, "\u0000", "\ud800", [], [1, 2], {}, { nested: { deep: [] } }, "<script>alert(1)</script>", "' OR 1=1 --"];
const BAD_IDS = ["abc", "-1", "0", "1.5", "1e309", "99999999999999999999999", "%00", "..%2F..%2Fetc", "x".repeat(3000), "NaN", "0x10", " 1"];
const RAW_BODIES = ["{bad", "[", "null", '"text"', "123", "[]", '{"a":', "\u0000", "[".repeat(5000) + "]".repeat(5000)];

function invalid(schema: z.ZodType | undefined, value: unknown): boolean {
  return schema ? !schema.safeParse(value).success : false;
}

/** Bodies that differ from a plausible one in one field at a time, kept only if the contract refuses them. */
function bodyCases(route: RouteCase): unknown[] {
  const schema = route.contract.body;
  if (!schema) return [];
  const fields = Object.keys(shapeOf(schema));
  const cases: unknown[] = [[], "text", 42, null];
  for (const field of fields) for (const value of WRONG_VALUES) cases.push({ [field]: value });
  for (const value of WRONG_VALUES) cases.push(Object.fromEntries(fields.map((f) => [f, value])));
  return cases.filter((body) => invalid(schema, body));
}

const WRONG_QUERY_VALUES = ["", "abc", "-1", "0", "1.5", "1e309", "%00", "%zz", HUGE.slice(0, 5000), "<x>", "null"];

function shapeOf(schema: z.ZodType): Record<string, unknown> {
  const loose = schema as unknown as { shape?: Record<string, unknown>; def?: { in?: { shape?: Record<string, unknown> } } };
  return loose.shape ?? loose.def?.in?.shape ?? {};
}

/** Query strings with one field at a time set to a bad value, kept only if the contract refuses them. */
function queryCases(route: RouteCase): string[] {
  const schema = route.contract.query!;
  const cases = [""];
  for (const field of Object.keys(shapeOf(schema))) for (const value of WRONG_QUERY_VALUES) cases.push(`?${field}=${value}`);
  return cases.filter((query) => {
    const params = Object.fromEntries(new URLSearchParams(query.replace(/%(?![0-9A-F]{2})/gi, "%25")));
    return invalid(schema, params);
  });
}

describe("fuzz harness: every route survives bad input without a 5xx or a write", () => {
  let runtime: SpawnedRuntime;
  let dynamo: DynamoDBClient;
  let superToken: string;
  let superId: number;

  const scanTable = async () => {
    const items: string[] = [];
    let start: Record<string, never> | undefined;
    do {
      const page = await dynamo.send(new ScanCommand({ TableName: runtime.env.TABLE_NAME, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) if (item.__edb_e__?.S !== "attempt") items.push(JSON.stringify(item));
      start = page.LastEvaluatedKey as typeof start;
    } while (start);
    return items.sort();
  };

  beforeAll(async () => {
    runtime = await spawnRuntime({ env: { ADMIN_EMAIL: "fuzz.admin@example.ch", ADMIN_PASSWORD: "fuzz-admin-pw-1", LOGIN_MAX_FAILURES_PER_IP: "100000" } });
    dynamo = new DynamoDBClient({ region: "eu-central-2", endpoint: runtime.env.DYNAMODB_ENDPOINT, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const found = (await (await fetch(`${runtime.url}/api/users?lookup=fuzz.admin%40example.ch`)).json()) as { id: number };
    const session = (await (await fetch(`${runtime.url}/api/users/${found.id}/login`, { method: "POST", body: JSON.stringify({ password: "fuzz-admin-pw-1" }) })).json()) as { api_token: string; id: number };
    superToken = session.api_token;
    superId = session.id;
  });
  afterAll(async () => {
    await runtime?.stop();
  });

  async function send(route: RouteCase, path: string, init: { body?: string; token?: string; contentType?: string } = {}) {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
    const response = await fetch(runtime.url + path, { method: route.method, headers, body: route.method === "GET" ? undefined : init.body });
    const text = await response.text();
    const label = `${route.method} ${path.slice(0, 80)} body ${String(init.body).slice(0, 60)}`;
    expect(response.status, label).toBeGreaterThanOrEqual(400);
    expect(response.status, label).toBeLessThan(500);
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    expect(typeof parsed.code, label).toBe("string");
    expect(typeof parsed.message, label).toBe("string");
    expect(text, label).not.toMatch(/\bat .+\.(ts|js):\d+/);
    return response.status;
  }

  it.each(routeCases().map((route) => ({ route, label: `${route.method} ${route.path}` })))("$label", async ({ route }) => {
    const before = await scanTable();
    const statuses: number[] = [];
    for (const token of [undefined, superToken]) {
      const ownPath = fillPath(route.path, { id: String(superId) });
      const withOverride = (body: unknown) => (route.method !== "GET" && body && typeof body === "object" && !Array.isArray(body) ? { ...overrideBody(route), ...body } : body);

      if (route.method !== "GET") {
        for (const raw of RAW_BODIES) statuses.push(await send(route, ownPath, { token, body: raw }));
        statuses.push(await send(route, ownPath, { token, body: JSON.stringify({ ...overrideBody(route), blob: "y".repeat(2 * 1024 * 1024) }) }));
        for (const body of bodyCases(route)) statuses.push(await send(route, ownPath, { token, body: JSON.stringify(withOverride(body)) }));
      }
      if (route.contract.params) {
        for (const id of BAD_IDS) {
          if (!invalid(route.contract.params, { id: decodeURIComponent(id.replace(/%(?![0-9A-F]{2})/gi, "%25")) })) continue;
          statuses.push(await send(route, fillPath(route.path, { id }).replace(/%25/g, "%"), { token, body: JSON.stringify(overrideBody(route)) }));
        }
      }
      if (route.contract.query) {
        for (const query of queryCases(route)) statuses.push(await send(route, ownPath + query, { token }));
      }
    }
    expect(await scanTable()).toEqual(before);
    if (route.contract.body || route.contract.params || route.contract.query) expect(statuses.length).toBeGreaterThan(0);
  });
});
