import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { gsi1, keyed, now, primary, SERVICE, ttl } from "../db/schema";

/**
 * A pickup (packages/core/src/pickup.ts): a conversation (recipient 0) with an outside guest.
 * Keyed by the conversation. Never holds the pickup code, the security code or the link: only
 * the lookup hash, SHA-256 of the guest's auth key (`verifier`) and counters. `expireAt` is the
 * validity end (reads treat the pickup as gone after it); the TTL (`purgeAt`) is a week later,
 * so that the sweep (Pickup.sweep) finds it first and removes the conversation and files too.
 * gsi1 orders all pickups by validity end for that sweep.
 */
export const PickupEntity = new Entity({
  model: { entity: "pickup", version: "1", service: SERVICE },
  attributes: {
    conversationId: { type: "number", required: true },
    lookup: { type: "string", required: true },
    authorId: { type: "number", required: true },
    /** Where the invitation went (the creator's list shows it). */
    email: { type: "string", required: true },
    verifier: { type: "string", required: true },
    /** Wrong auth keys so far; the pickup is locked for good at PICKUP_MAX_WRONG. */
    failures: { type: "number", required: true, default: 0 },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    /** Seconds. */
    expireAt: { type: "number", required: true, padding: { length: 12, char: "0" } },
    /** Seconds: the first successful recovery. */
    redeemedAt: { type: "number" },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byConversation: keyed(primary, ["conversationId"], []),
    byExpiry: keyed(gsi1, [], ["expireAt", "conversationId"]),
  },
});


/** The unique lookup hash of a pickup → its conversation (create-only, so a hash is used once). */
export const PickupLookupEntity = new Entity({
  model: { entity: "pickuplookup", version: "1", service: SERVICE },
  attributes: {
    lookup: { type: "string", required: true },
    conversationId: { type: "number", required: true },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byLookup: keyed(primary, ["lookup"], []),
  },
});


export type PickupItem = EntityItem<typeof PickupEntity>;

/** The pickup domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const pickupEntities = registerEntities({
  pickup: PickupEntity,
  pickuplookup: PickupLookupEntity,
});
