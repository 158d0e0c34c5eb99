import type { TransactionEntities, TransactionItem } from "../db/service";
import { findGroup } from "./access";
import "../conversation/errors";
import "./entities";
import "./errors";

/**
 * The transaction items that change a group's membership and keys together (members.ts, keys.ts):
 * the group item with the conditions that hold its invariants, a log part, a wrap; and why such a
 * transaction was refused.
 */

/** A change of the group item within a transaction: its counters and the conditions that hold the invariants together. */
export interface GroupChange {
  /** Members and administrators gained (negative: lost). */
  members?: number;
  admins?: number;
  /** Only while the group keeps another administrator (a removal of one). */
  keepAdmin?: boolean;
  /** The log's head the change starts from (condition) and its new head. */
  head?: number;
  newHead?: number;
  /** The epoch the change is for (condition). */
  epoch?: number;
  /** Starts this epoch (its predecessor is the condition `epoch`). */
  startEpoch?: number;
  /** A member leaves: the next epoch should reach only the rest. */
  needsRekey?: boolean;
}

/** The one transaction item that changes the group item, with every condition of `change`. */
export function groupPatch(tx: TransactionEntities, groupId: number, change: GroupChange): TransactionItem {
  const set = {
    ...(change.newHead !== undefined ? { logSeq: change.newHead } : {}),
    ...(change.startEpoch !== undefined ? { epoch: change.startEpoch, needsRekey: false } : {}),
    ...(change.needsRekey ? { needsRekey: true } : {}),
  };
  const add = { ...(change.members ? { memberCount: change.members } : {}), ...(change.admins ? { adminCount: change.admins } : {}) };
  return tx.group
    .patch({ id: groupId })
    .set(set)
    .add(add)
    .where((attr, op) =>
      [
        change.keepAdmin ? op.gt(attr.adminCount, 1) : "",
        change.head !== undefined ? op.eq(attr.logSeq, change.head) : "",
        change.epoch !== undefined ? op.eq(attr.epoch, change.epoch) : "",
      ]
        .filter(Boolean)
        .join(" AND "),
    )
    .commit();
}

/** The item that stores `entries` after `head` (create-only: a second append at the same seq fails with the group's condition). */
export function logItem(tx: TransactionEntities, groupId: number, head: number, entries: readonly unknown[], authorId: number): TransactionItem {
  return tx.grouplog.create({ groupId, first: head + 1, count: entries.length, entries: JSON.stringify(entries), authorId }).commit();
}

/** The item that sets the signed record of an existing epoch (the record after a member was added). */
export function recordItem(tx: TransactionEntities, groupId: number, epoch: number, record: unknown): TransactionItem {
  return tx.groupepoch.update({ groupId, epoch }).set({ record: JSON.stringify(record) }).commit();
}

export function wrapItem(tx: TransactionEntities, groupId: number, epoch: number, userId: number, wrap: unknown, sealerId: number): TransactionItem {
  return tx.groupwrap.put({ groupId, epoch, userId, wrap: JSON.stringify(wrap), sealerId }).commit();
}

/**
 * Why a transaction that changed the group item with `change` was refused by the group's
 * condition, read afresh: 409 log_conflict (another append moved the head), 409 epoch_stale
 * (another epoch started), or undefined (something else: the caller names it).
 */
export async function groupRefusal(groupId: number, change: GroupChange): Promise<"log_conflict" | "epoch_stale" | "group_not_found" | undefined> {
  const group = await findGroup(groupId);
  if (!group) return "group_not_found";
  if (change.head !== undefined && group.logSeq !== change.head) return "log_conflict";
  if (change.epoch !== undefined && group.epoch !== change.epoch) return "epoch_stale";
  return undefined;
}
