import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { keyed, primary, SERVICE } from "../db/schema";

/**
 * One identity record of a user (protocol v2, docs/protocol.md §14.3): seq 0 is the birth record,
 * each later one a rotation. Create-only per (user, seq), so two windows cannot both publish seq n.
 * The signed record is kept as its canonical JSON text, with its key id (the anchors are the
 * root's) and how it is certified (a root is the setup administrator's seq 0).
 */
export const IdentityEntity = new Entity({
  model: { entity: "identity", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    seq: { type: "number", required: true, padding: { length: 10, char: "0" } },
    keyId: { type: "string", required: true },
    certifiedBy: { type: ["root", "invitation", "previous", "reset", "legacy"] as const, required: true },
    /** The `SignedIdentity` as canonical JSON. */
    record: { type: "string", required: true },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], ["seq"]),
  },
});

/** A user's admin certificate (`SignedAdmin`): at most one per user, create-only. */
export const AdminCertificateEntity = new Entity({
  model: { entity: "admincert", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    record: { type: "string", required: true },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], []),
  },
});

/**
 * A certificate for a user's version 1 key (`SignedLegacyKey`, docs/protocol.md §14.14): one per
 * user and v1 key (the keypair's id; a key made anew needs a certificate of its own), create-only.
 */
export const LegacyCertificateEntity = new Entity({
  model: { entity: "legacycert", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    keypairId: { type: "number", required: true },
    record: { type: "string", required: true },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], ["keypairId"]),
  },
});

/** The instance's legacy rule (`SignedLegacyRule`, signed by the root): one, create-only. */
export const LegacyRuleEntity = new Entity({
  model: { entity: "legacyrule", version: "1", service: SERVICE },
  attributes: {
    rule: { type: ["certified-only"] as const, required: true },
    record: { type: "string", required: true },
  },
  indexes: {
    byRule: keyed(primary, ["rule"], []),
  },
});

/**
 * A user's encrypted account data of one kind (the pins): an `aead` envelope the server cannot
 * open, and a revision that each save raises, so two windows do not lose each other's changes.
 */
export const AccountDataEntity = new Entity({
  model: { entity: "accountdata", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    kind: { type: ["pins"] as const, required: true },
    data: { type: "string", required: true },
    rev: { type: "number", required: true },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], ["kind"]),
  },
});

export type IdentityItem = EntityItem<typeof IdentityEntity>;
export type AdminCertificateItem = EntityItem<typeof AdminCertificateEntity>;
export type LegacyCertificateItem = EntityItem<typeof LegacyCertificateEntity>;

/** The identity domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const identityEntities = registerEntities({
  identity: IdentityEntity,
  admincert: AdminCertificateEntity,
  legacycert: LegacyCertificateEntity,
  legacyrule: LegacyRuleEntity,
  accountdata: AccountDataEntity,
});
