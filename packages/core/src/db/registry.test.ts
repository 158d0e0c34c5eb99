/**
 * What a Lambda sees: only the registrations of the modules its routes import. This file imports
 * the pickup domain's entities and nothing else of the domains (not the core's index, which
 * registers them all), as a bundle of the pickups area would.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { JOB_KINDS, queueUrlSetting, resetConfig } from "../config";
import { AppError } from "../errors";
import { logger } from "../http/logger";
import "../pickup/entities";
import { db } from "./service";

beforeAll(() => {
  vi.stubEnv("TABLE_NAME", "unit");
  vi.stubEnv("BUCKET_NAME", "unit");
  for (const kind of JOB_KINDS) vi.stubEnv(queueUrlSetting(kind), `http://127.0.0.1:9/000000000000/${kind}`);
  vi.stubEnv("JWT_PRIVATE_JWK", "{}");
  vi.stubEnv("APP_URL", "http://localhost:3000");
  resetConfig();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe("db() serves the registered entities", () => {
  it("has those of the imported domains, and the counter", () => {
    expect(Object.keys(db().entities).sort()).toEqual(["counter", "pickup", "pickuplookup"]);
    expect(db().entities.pickup.get({ conversationId: 1 }).params()).toMatchObject({ TableName: "unit" });
  });

  it("refuses loudly an entity of a domain not imported, naming it and its domain", () => {
    expect(() => db().entities.roleassignment).toThrow(/roleassignment entity is not registered.*"group\/entities"/);
    const write = db().transaction.write((tx) => [tx.user.patch({ id: 1 }).set({ name: "x" }).commit()]);
    expect(() => write.params()).toThrow(/user entity is not registered.*"user\/entities"/);
  });

  it("takes in the entities of a domain imported later", async () => {
    await import("../user/entities");
    expect(db().entities.user.get({ id: 1 }).params()).toMatchObject({ TableName: "unit" });
    expect(db().transaction.write((tx) => [tx.user.patch({ id: 1 }).set({ name: "x" }).commit()]).params()).toMatchObject({ TransactItems: [{ Update: { TableName: "unit" } }] });
  });

  it("leaves other properties alone (no entity of the table, no throw)", () => {
    expect((db().entities as Record<string, unknown>).then).toBeUndefined();
  });
});

describe("AppError with the registered texts", () => {
  it("gives a code whose domain's errors.ts is not in the bundle the status and text of internal, keeping the code", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    const error = new AppError("pickup_not_found");
    expect({ code: error.code, status: error.status, message: error.message }).toEqual({
      code: "pickup_not_found",
      status: 500,
      message: "Something went wrong on our side. Please try again later.",
    });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("errors.ts"), { code: "pickup_not_found" });
    logged.mockRestore();

    await import("../pickup/errors");
    expect(new AppError("pickup_not_found")).toMatchObject({ status: 404, message: "This pickup code is incorrect or has expired..." });
  });

  it("always knows the common codes", () => {
    expect(new AppError("unauthenticated")).toMatchObject({ status: 401, message: "Please log in." });
  });
});
