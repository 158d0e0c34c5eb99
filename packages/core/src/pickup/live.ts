import { PICKUP_MAX_WRONG } from "@sealwork/contracts/pickup-limits";
import { db } from "../db/service";
import type { PickupItem } from "./entities";
import "./entities";

/** A pickup may be opened until its validity end, and until the PICKUP_MAX_WRONG-th wrong code locks it. */
export const isLive = (p: PickupItem, now = Math.floor(Date.now() / 1000)) => p.expireAt > now && p.failures < PICKUP_MAX_WRONG;

export async function getPickup(conversationId: number): Promise<PickupItem | undefined> {
  const { data } = await db().entities.pickup.get({ conversationId }).go();
  return data ?? undefined;
}

/**
 * Whether a guest's pickup may still be opened: authentication asks on every guest request, so
 * that an expired, locked or deleted pickup shuts its guest out at once. Kept apart from the
 * pickup verbs so that every API function can ask without carrying them.
 */
export async function isLivePickup(conversationId: number): Promise<boolean> {
  const pickup = await getPickup(conversationId);
  return Boolean(pickup && isLive(pickup));
}
