import { Entity } from "electrodb";
import { registerEntities } from "../db/registry";
import { keyed, primary, SERVICE, ttl } from "../db/schema";

/** A sliding window of failed attempts for one scope and key (login per user, per client). */
export const AttemptEntity = new Entity({
  model: { entity: "attempt", version: "1", service: SERVICE },
  attributes: {
    scope: { type: "string", required: true },
    key: { type: "string", required: true },
    count: { type: "number", required: true },
    expiresAt: ttl,
  },
  indexes: {
    byKey: keyed(primary, ["scope", "key"], []),
  },
});

/** The rate-limit domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const rateLimitEntities = registerEntities({
  attempt: AttemptEntity,
});
