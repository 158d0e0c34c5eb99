import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { gsi1, keyed, now, primary, SERVICE, ttl } from "../db/schema";

/**
 * One registered account key: public halves, the owner's signature over them and the
 * secure-code-wrap backup (ciphertext; the server never has the code or the private keys).
 * Envelopes are stored as their canonical JSON text. Whether a key is current is not stored
 * here but in the owner's KeyHead, so replacing a key is one conditional write.
 */
export const KeypairEntity = new Entity({
  model: { entity: "keypair", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    userId: { type: "number", required: true },
    type: { type: ["public", "temp"] as const, required: true, default: "public" },
    /** Server time (seconds) when the key was registered. */
    sentinel: { type: "number", required: true },
    /** Client time (seconds) at creation, inside the signed record. */
    timestamp: { type: "number", required: true },
    encryptPublic: { type: "string", required: true },
    signPublic: { type: "string", required: true },
    signature: { type: "string", required: true },
    backup: { type: "string" },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
    byUser: keyed(gsi1, ["userId"], ["id"]),
  },
});


/** Which key is a user's current one; the condition on keyId is what stops two tabs racing. */
export const KeyHeadEntity = new Entity({
  model: { entity: "keyhead", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    keyId: { type: "number", required: true },
    /** False when the current key was invalidated (the owner must make a new one). */
    valid: { type: "boolean", required: true, default: true },
    /**
     * The protocol v2 key id (docs/protocol.md §14.2) that may sign and seal for the user now: the
     * current key's, or TEMP_SIGNER while a temporary key is current (no one signs with it). Absent
     * on heads written before it existed (nothing is refused for them until the next key).
     */
    signingKeyId: { type: "string" },
    updatedAt: { type: "number", required: true, default: now },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], []),
  },
});


/**
 * An invitation's transit envelope: the temporary keys wrapped under the 40-bit invitation code
 * (docs/protocol.md §13). Kept apart from the temporary key's item so that it can expire by
 * itself (TTL at the invitation's validity end; the server also refuses and deletes it once that
 * has passed) and is deleted at takeover, when the invitee's fresh keys replace the temporary ones.
 */
export const TransitEntity = new Entity({
  model: { entity: "transit", version: "1", service: SERVICE },
  attributes: {
    /** The temporary key's id. */
    keyId: { type: "number", required: true },
    envelope: { type: "string", required: true },
    expiresAt: { ...ttl, required: true },
  },
  indexes: {
    byKey: keyed(primary, ["keyId"], []),
  },
});


/**
 * A key reset an administrator made for a user who lost their key (docs/protocol.md §14.3, "Key
 * resets"): the signed reset, the temporary key it made the user's current key, and its end. One
 * per user, living exactly as long as that temporary key is current: made with it, replaced with
 * it by a newer reset, and deleted with it when the user registers the key the reset certifies.
 * No TTL: while it is there a temporary key is a reset's (not an invitation's), also after its end.
 */
export const KeyResetEntity = new Entity({
  model: { entity: "keyreset", version: "1", service: SERVICE },
  attributes: {
    userId: { type: "number", required: true },
    /** The temporary key's id. */
    keyId: { type: "number", required: true },
    /** The `SignedKeyReset` as canonical JSON. */
    reset: { type: "string", required: true },
    /** Seconds: the reset's `expires`, after which it certifies nothing and its transit is gone. */
    expiresAt: { type: "number", required: true },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], []),
    /** Every pending reset, for the administrators' users list (items written before this index existed are absent until replaced). */
    pending: keyed(gsi1, [], ["userId"]),
  },
});


/** The unauthenticated backup store (pickups, invitations): found by a name digest, expiring. */
export const BackupEntity = new Entity({
  model: { entity: "backup", version: "1", service: SERVICE },
  attributes: {
    name: { type: "string", required: true },
    contents: { type: "string", required: true },
    signature: { type: "string" },
    apiMessage: { type: "string" },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    expiresAt: { ...ttl, required: true },
  },
  indexes: {
    byName: keyed(primary, ["name"], []),
  },
});


export type KeypairItem = EntityItem<typeof KeypairEntity>;
export type TransitItem = EntityItem<typeof TransitEntity>;
export type KeyResetItem = EntityItem<typeof KeyResetEntity>;

/** The keys domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const keysEntities = registerEntities({
  keypair: KeypairEntity,
  keyhead: KeyHeadEntity,
  backup: BackupEntity,
  transit: TransitEntity,
  keyreset: KeyResetEntity,
});
