import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { gsi1, keyed, now, primary, SERVICE, ttl } from "../db/schema";

/**
 * An invitation (packages/core/src/invite.ts): one per invited account, keyed by the account.
 * `validUntil` is the 30-day validity that resending renews; the TTL (`purgeAt`) removes the item
 * 90 days after that, so expired invitations stay listable and resendable for a while.
 */
export const InviteEntity = new Entity({
  model: { entity: "invite", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    userId: { type: "number", required: true },
    invitedBy: { type: "number", required: true },
    createdAt: { type: "number", required: true, default: now },
    validUntil: { type: "number", required: true },
    acceptedAt: { type: "number" },
    /** The administrator's note to the invitee, as typed (sent in the email). */
    message: { type: "string" },
    /** Protocol v2: the `SignedInvitation` (canonical JSON) the invitee's birth record must be certified by; absent for a legacy invitation. */
    invitation: { type: "string" },
    purgeAt: { ...ttl, required: true },
  },
  indexes: {
    byUser: keyed(primary, ["userId"], []),
    all: keyed(gsi1, [], ["id"]),
  },
});


/**
 * An invite id handed to an administrator about to sign an invitation (the id is inside what they
 * sign): used once, by them, within an hour.
 */
export const InviteReservationEntity = new Entity({
  model: { entity: "invitereservation", version: "1", service: SERVICE },
  attributes: {
    id: { type: "number", required: true },
    adminId: { type: "number", required: true },
    expiresAt: { ...ttl, required: true },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
  },
});

export type InviteItem = EntityItem<typeof InviteEntity>;

/** The invite domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const inviteEntities = registerEntities({
  invite: InviteEntity,
  invitereservation: InviteReservationEntity,
});
