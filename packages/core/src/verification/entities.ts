import { Entity } from "electrodb";
import { registerEntities } from "../db/registry";
import { keyed, primary, SERVICE, ttl } from "../db/schema";

/**
 * A pending 6-digit code sent to an account's email or phone, one per account and purpose
 * ("register": an invited account's first password; "reset": a forgotten password). Only a
 * SHA-256 of the code is kept; its tries are counted per account by the rate limiter
 * (VerificationCode), so that a new code does not start them afresh.
 */
export const VerificationEntity = new Entity({
  model: { entity: "verification", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    purpose: { type: "string", required: true },
    contact: { type: "string", required: true },
    codeHash: { type: "string", required: true },
    expiresAt: ttl,
  },
  indexes: {
    byUser: keyed(primary, ["userId"], ["purpose"]),
  },
});

/** The verification domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const verificationEntities = registerEntities({
  verification: VerificationEntity,
});
