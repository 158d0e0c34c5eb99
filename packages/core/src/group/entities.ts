import { Entity } from "electrodb";
import { SERVICE, gsi1, primary } from "../db/schema";

/** Placeholder for group membership until groups exist: enough for "must share a group". */
export const GroupMembershipEntity = new Entity({
  model: { entity: "groupmember", version: "1", service: SERVICE },
  attributes: {
    groupId: { type: "number", required: true },
    userId: { type: "number", required: true },
  },
  indexes: {
    byGroup: { ...primary, pk: { ...primary.pk, composite: ["groupId"] }, sk: { ...primary.sk, composite: ["userId"] } },
    byUser: { ...gsi1, pk: { ...gsi1.pk, composite: ["userId"] }, sk: { ...gsi1.sk, composite: ["groupId"] } },
  },
});

