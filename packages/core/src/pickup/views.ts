import { PICKUP_MAX_WRONG, type ConversationView, type PickupView } from "@sealwork/contracts";
import { pickupParams } from "@sealwork/crypto";
import { keysOf } from "../conversation/access";
import { db } from "../db/service";
import type { PickupItem } from "./entities";
import "./entities";

/**
 * What the creator sees of their pickups in the conversation list and the notification check:
 * kept apart from the pickup verbs, so the conversations' functions list pickups without
 * carrying the guest's key derivation, tokens and mail.
 */
export function pickupView(p: PickupItem, wrapped: string): PickupView {
  return {
    conversation_id: p.conversationId,
    email: p.email,
    redeem_timestamp: p.redeemedAt ?? -1,
    expire_timestamp: p.expireAt,
    link_secret: pickupParams(wrapped).link === 1,
    locked: p.failures >= PICKUP_MAX_WRONG,
  };
}

/** The creator's view of the pickups among these conversations, keyed by conversation id. */
export async function pickupViews(conversations: ConversationView[]): Promise<Record<string, PickupView>> {
  const ids = conversations.filter((c) => c.recipient_id === 0).map((c) => c.id);
  const out: Record<string, PickupView> = {};
  if (!ids.length) return out;
  const [{ data: pickups }, wraps] = await Promise.all([db().entities.pickup.get(ids.map((conversationId) => ({ conversationId }))).go(), keysOf(ids, 0)]);
  for (const p of pickups) {
    const wrapped = wraps.get(p.conversationId);
    if (wrapped) out[String(p.conversationId)] = pickupView(p, wrapped);
  }
  return out;
}

/** A conversation list (or notification check) with the creator's view of its pickups added. */
export async function withPickupViews<T extends { conversations: ConversationView[] }>(list: T): Promise<T & { pickups: Record<string, PickupView> }> {
  return { ...list, pickups: await pickupViews(list.conversations) };
}
