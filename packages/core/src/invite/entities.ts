import { Entity, type EntityItem } from "electrodb";
import { SERVICE, gsi1, now, primary, ttl } from "../db/schema";

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
    byUser: { ...primary, pk: { ...primary.pk, composite: ["userId"] }, sk: { ...primary.sk, composite: [] } },
    all: { ...gsi1, pk: { ...gsi1.pk, composite: [] }, sk: { ...gsi1.sk, composite: ["id"] } },
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
    byId: { ...primary, pk: { ...primary.pk, composite: ["id"] }, sk: { ...primary.sk, composite: [] } },
  },
});

export type InviteItem = EntityItem<typeof InviteEntity>;
