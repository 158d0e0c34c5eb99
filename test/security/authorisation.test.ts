import { CALLER_KINDS, type CallerKind } from "@sealwork/contracts";
import { issueToken } from "@sealwork/core/tokens";
import { beforeAll, describe, expect, it } from "vitest";
import { http } from "../support/api";
import { createSession } from "../support/users";
import { fillPath, overrideBody, routeCases } from "../support/routes";

/**
 * Every route declares who may call it. Each other kind of caller must be turned away: 401
 * without a token, 403 with one. New routes are covered by being in the route table.
 */
describe("authorisation harness: every route refuses the callers it does not admit", () => {
  const tokens = {} as Record<CallerKind, string | undefined>;
  const ids = {} as Record<CallerKind, number>;

  beforeAll(async () => {
    tokens.anonymous = undefined;
    tokens.guest = await issueToken({ kind: "guest", uid: 0, pickup: "1" });
    ids.anonymous = ids.guest = 1;
    for (const [kind, options] of [
      ["user", {}],
      ["admin", { admin: true }],
      ["super", { admin: true, superAdmin: true }],
    ] as const) {
      const session = await createSession(options);
      tokens[kind] = session.api_token;
      ids[kind] = session.id;
    }
  });

  const cases = routeCases().flatMap((route) =>
    CALLER_KINDS.filter((kind) => !route.contract.access.includes(kind)).map((kind) => ({ route, kind, label: `${route.method} ${route.path} as ${kind}` })),
  );

  it("has routes that admit only some callers", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)("$label", async ({ route, kind }) => {
    const path = fillPath(route.path, { id: String(ids[kind]) });
    const body = route.method === "GET" ? undefined : { ...overrideBody(route) };
    const reply = await http(route.method, path, { token: tokens[kind], body });
    expect(reply.status).toBe(kind === "anonymous" ? 401 : 403);
    expect(reply.body).toMatchObject({ code: kind === "anonymous" ? "unauthenticated" : "forbidden" });
  });

  it("turns away a token signed with another key everywhere but anonymous routes", async () => {
    const { generateKeyPair, SignJWT } = await import("jose");
    const { privateKey } = await generateKeyPair("ES256");
    const foreign = await new SignJWT({ kind: "user", tv: 1 })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject(String(ids.super))
      .setIssuer("sealwork")
      .setAudience("sealwork-api")
      .setExpirationTime("1h")
      .sign(privateKey);
    for (const route of routeCases().filter((r) => !r.contract.access.includes("anonymous"))) {
      const reply = await http(route.method, fillPath(route.path), { token: foreign, body: route.method === "GET" ? undefined : overrideBody(route) });
      expect(reply.status, `${route.method} ${route.path}`).toBe(401);
    }
  });
});
