import { issueToken, verifyToken } from "@sealwork/core/tokens";
import { beforeAll, describe, expect, it } from "vitest";
import { unitEnv } from "./env";

describe("api tokens", () => {
  beforeAll(unitEnv);

  it("round-trips user and guest claims", async () => {
    expect(await verifyToken(await issueToken({ kind: "user", uid: 42, tokenVersion: 3 }))).toEqual({ kind: "user", uid: 42, tokenVersion: 3 });
    expect(await verifyToken(await issueToken({ kind: "guest", uid: 0, pickup: "ABABA12121" }))).toEqual({ kind: "guest", uid: 0, pickup: "ABABA12121" });
  });

  it("refuses a token with any part altered", async () => {
    const token = await issueToken({ kind: "user", uid: 7, tokenVersion: 1 });
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const elevated = Buffer.from(JSON.stringify({ ...claims, sub: "1" })).toString("base64url");
    expect(await verifyToken(`${header}.${elevated}.${signature}`)).toBeUndefined();
    const flipped = signature.slice(0, 10) + (signature[10] === "A" ? "B" : "A") + signature.slice(11);
    expect(await verifyToken(`${header}.${payload}.${flipped}`)).toBeUndefined();
    expect(await verifyToken(`${Buffer.from('{"alg":"none"}').toString("base64url")}.${payload}.`)).toBeUndefined();
    expect(await verifyToken("garbage")).toBeUndefined();
  });
});
