import { Entity, Service, type EntityItem } from "electrodb";
import { config } from "../config";
import { dynamo } from "./client";
import { TABLE } from "./table";

/**
 * Every item kind in the one table. Keys are composed here and only here (ElectroDB builds
 * them from the composite attributes); index names and key fields come from TABLE.
 */
const SERVICE = "sealwork";
const primary = { pk: { field: TABLE.partitionKey }, sk: { field: TABLE.sortKey } } as const;
const gsi1 = { index: "gsi1", pk: { field: TABLE.indexes.gsi1.partitionKey }, sk: { field: TABLE.indexes.gsi1.sortKey } } as const;

const ttl = { type: "number", field: TABLE.ttlAttribute } as const;
const now = () => Math.floor(Date.now() / 1000);

export const UserEntity = new Entity({
  model: { entity: "user", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    name: { type: "string", required: true },
    email: { type: "string" },
    phone: { type: "string" },
    /** Argon2id, PHC-encoded. Absent while an invited account has not registered yet. */
    passwordHash: { type: "string" },
    admin: { type: "boolean", required: true, default: false },
    superAdmin: { type: "boolean", required: true, default: false },
    /** Raised by a password change or an admin reset; tokens carrying an older one are refused. */
    tokenVersion: { type: "number", required: true, default: 1 },
    totpEnabled: { type: "boolean", required: true, default: false },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
  },
  indexes: {
    byId: { ...primary, pk: { ...primary.pk, composite: ["id"] }, sk: { ...primary.sk, composite: [] } },
    all: { ...gsi1, pk: { ...gsi1.pk, composite: [] }, sk: { ...gsi1.sk, composite: ["id"] } },
  },
});

/** One item per email or phone number: makes contacts unique and finds the user behind one. */
export const ContactEntity = new Entity({
  model: { entity: "contact", version: "1", service: SERVICE },
  attributes: {
    contact: { type: "string", required: true },
    userId: { type: "number", required: true },
  },
  indexes: {
    byContact: { ...primary, pk: { ...primary.pk, composite: ["contact"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** Monotonic counters (user ids, later conversation and mote ids). */
export const CounterEntity = new Entity({
  model: { entity: "counter", version: "1", service: SERVICE },
  attributes: {
    name: { type: "string", required: true },
    value: { type: "number" },
  },
  indexes: {
    byName: { ...primary, pk: { ...primary.pk, composite: ["name"] }, sk: { ...primary.sk, composite: [] } },
  },
});

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
    byKey: { ...primary, pk: { ...primary.pk, composite: ["scope", "key"] }, sk: { ...primary.sk, composite: [] } },
  },
});

/** A pending 6-digit verification code for registering an invited account. */
export const VerificationEntity = new Entity({
  model: { entity: "verification", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    purpose: { type: "string", required: true },
    contact: { type: "string", required: true },
    codeHash: { type: "string", required: true },
    failures: { type: "number", required: true, default: 0 },
    expiresAt: ttl,
  },
  indexes: {
    byUser: { ...primary, pk: { ...primary.pk, composite: ["userId"] }, sk: { ...primary.sk, composite: ["purpose"] } },
  },
});

const entities = {
  user: UserEntity,
  contact: ContactEntity,
  counter: CounterEntity,
  attempt: AttemptEntity,
  verification: VerificationEntity,
};

let service: Service<typeof entities> | undefined;

/** The entities bound to the configured table and client (resolved on first use). */
export function db(): Service<typeof entities> {
  if (service) return service;
  service = new Service(entities, { table: config().TABLE_NAME, client: dynamo() });
  return service;
}

export type UserItem = EntityItem<typeof UserEntity>;
