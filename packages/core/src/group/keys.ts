import { WRAPS_PER_TRANSACTION, groupLogAppend, groupLogQuery, wrapsBody } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { sealedSince } from "../db/schema";
import { type TransactionEntities, type TransactionItem, db, writeTransaction } from "../db/service";
import { fail, valid } from "../errors";
import { currentKey, sealable } from "../keys/current";
import { groupAccess, membersOf } from "./access";
import { type GroupChange, groupPatch, groupRefusal, logItem, recordItem, wrapItem } from "./changes";
import type { GroupItem } from "./entities";
import "../conversation/errors";
import "./entities";
import "./errors";

/**
 * The group key's server side (docs/protocol.md; docs/api.md, Group keys). The server never reads
 * the key material: log entries, records and wraps are stored as the JSON the client sent, and
 * served as it came. What it holds to is who writes (the group's administrators; a member reads
 * only their own wraps), the order of the log (an append is conditional on the head the caller
 * had: 409 log_conflict), the order of epochs (each one after the current, with its link), and
 * that a wrap is only ever stored for someone who is a member at that moment.
 */

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

export namespace GroupKeys {
  /**
   * A transaction's check that the group key is still at `epoch` with no removal waiting for the
   * next one: what storing anything sealed for that epoch needs (a message, a record's dockey).
   */
  export function currentEpochCheck(tx: TransactionEntities, groupId: number, epoch: number): TransactionItem {
    return tx.group.check({ id: groupId }).where((attr, op) => `${op.eq(attr.epoch, epoch)} AND ${op.eq(attr.needsRekey, false)}`).commit();
  }

  /** Why something sealed for `epoch` was refused: a removal waits for the next epoch, or the epoch is past. */
  export async function epochRefusal(groupId: number): Promise<never> {
    const { data } = await db().entities.group.get({ id: groupId }).go();
    return fail(data?.needsRekey ? "rekey_pending" : "epoch_stale");
  }

  /** The same, before anything is written: a group still at `epoch`, with no removal waiting. */
  export function requireCurrentEpoch(group: GroupItem, epoch: number): void {
    if (group.needsRekey) fail("rekey_pending");
    if (epoch !== group.epoch) fail("epoch_stale");
  }

  /**
   * GET /api/groups/{id}/log: the whole log and each epoch's record and link (any member); with
   * `epochs=current`, the current epoch's only: a group of 1,000 after 100 removals would
   * otherwise serve 100 records of some 70 kB on every load, and a reader needs older ones only
   * to open older content (GET …/epochs/{epoch}).
   */
  export async function log(actor: Actor, groupId: number, input: z.input<typeof groupLogQuery> = {}) {
    const query = valid(groupLogQuery, input);
    const { group } = await groupAccess(actor, groupId, "read");
    const [parts, epochs] = await Promise.all([
      db().entities.grouplog.query.byGroup({ groupId }).go({ pages: "all" }),
      query.epochs === "current"
        ? db().entities.groupepoch.get({ groupId, epoch: group.epoch }).go().then(({ data }) => (data ? [data] : []))
        : db().entities.groupepoch.query.byGroup({ groupId }).go({ pages: "all" }).then(({ data }) => data),
    ]);
    const entries = parts.data.flatMap((part) => (JSON.parse(part.entries) as Record<string, unknown>[]).map((entry, i) => ({ seq: part.first + i, entry })));
    const byEpoch = new Map(epochs.map((e) => [e.epoch, e]));
    const served = query.epochs === "current" ? [group.epoch] : Array.from({ length: group.epoch + 1 }, (_, epoch) => epoch);
    return {
      entries,
      head: group.logSeq,
      epoch: group.epoch,
      needs_rekey: group.needsRekey,
      epochs: served.map((epoch) => epochView(epoch, byEpoch.get(epoch))),
    };
  }

  /** GET /api/groups/{id}/epochs/{epoch}: one epoch's record and link (any member; 404 beyond the current epoch). */
  export async function epoch(actor: Actor, groupId: number, epoch: number) {
    const { group } = await groupAccess(actor, groupId, "read");
    if (epoch > group.epoch) fail("not_found");
    const { data } = await db().entities.groupepoch.get({ groupId, epoch }).go();
    return epochView(epoch, data ?? undefined);
  }

  function epochView(epoch: number, item: { record?: string; link?: string } | undefined) {
    return { epoch, record: item?.record ? parse(item.record) : null, link: item?.link ?? null };
  }

  /**
   * POST /api/groups/{id}/log (group administrators): entries after the caller's head, the record
   * of the current epoch, or the start of the next epoch with its link (and its record).
   */
  export async function appendLog(actor: Actor, groupId: number, body: z.input<typeof groupLogAppend>) {
    const input = valid(groupLogAppend, body);
    const { me, group } = await groupAccess(actor, groupId, "manage");
    // An epoch already started (by another admin at the same moment) is stale; one beyond the next is wrong.
    if (input.rekey && input.rekey.epoch <= group.epoch) fail("epoch_stale");
    if (input.rekey && input.rekey.epoch !== group.epoch + 1) fail("group_rekey_invalid", { message: `The next epoch is ${group.epoch + 1}.` });
    const epoch = input.rekey?.epoch ?? group.epoch;
    const newHead = input.head + input.entries.length;
    const change: GroupChange = { head: input.head, newHead, epoch: group.epoch, startEpoch: input.rekey?.epoch };
    const { canceled } = await writeTransaction((tx) => [
      groupPatch(tx, groupId, change),
      ...(input.entries.length ? [logItem(tx, groupId, input.head, input.entries, me.uid)] : []),
      ...(input.rekey
        ? [tx.groupepoch.create({ groupId, epoch, link: input.rekey.link, ...(input.record ? { record: JSON.stringify(input.record) } : {}) }).commit()]
        : input.record
          ? [recordItem(tx, groupId, epoch, input.record)]
          : []),
    ]);
    if (canceled) fail((await groupRefusal(groupId, change)) ?? "epoch_stale");
    return { head: newHead, epoch, needs_rekey: input.rekey ? false : group.needsRekey };
  }

  /**
   * The account key of `userId` moved at `movedAt` (renewed, or reset after they lost it; the
   * key-moved job, after the page keys and drive grants they held): in every group they are a
   * member of whose current wrap for them was sealed before then, that wrap is for a key they no
   * longer hold, which the wraps status says (`moved_keys`) until a wrap for them is stored again.
   * A group whose epoch their own browser renewed since (their only administrator renewing) is
   * left as it is: one more epoch would be for nothing.
   */
  export async function keyMoved(userId: number, movedAt: number): Promise<void> {
    const at = Math.floor(Date.now() / 1000);
    await Promise.all(
      (await groupsOf(userId)).map(async (groupId) => {
        const { data: group } = await db().entities.group.get({ id: groupId }).go();
        if (!group) return;
        const { data: wrap } = await db().entities.groupwrap.get({ groupId, epoch: group.epoch, userId }).go();
        if (sealedSince(wrap, movedAt)) return;
        await db()
          .entities.groupmember.patch({ groupId, userId })
          .set({ keyMovedAt: at })
          .where((attr, op) => op.exists(attr.userId))
          .go()
          .catch((error: unknown) => {
            // Left the group meanwhile: nothing to move.
            if (!(error instanceof Error && /conditional/i.test(error.message))) throw error;
          });
      }),
    );
  }

  /** The ids of the groups `userId` is a member of. */
  export async function groupsOf(userId: number): Promise<number[]> {
    const { data } = await db().entities.groupmember.query.byUser({ userId }).go({ pages: "all" });
    return data.map((m) => m.groupId);
  }

  /** GET /api/groups/{id}/wraps: the caller's own wraps, every epoch they were given (any member; nobody reads another's). */
  export async function mine(actor: Actor, groupId: number) {
    const { me, group } = await groupAccess(actor, groupId, "read");
    const { data } = await db().entities.groupwrap.query.byMember({ groupId, userId: me.uid }).go({ pages: "all" });
    return { epoch: group.epoch, wraps: data.map((w) => ({ epoch: w.epoch, wrap: parse(w.wrap), sealer_id: w.sealerId })) };
  }

  /**
   * POST /api/groups/{id}/wraps (group administrators): wraps of the current epoch for members,
   * up to WRAPS_MAX in one call (a new epoch of a group of 1,000 is one request). Everyone named
   * must be a member (read first, so a wrong list stores nothing); then transactions of
   * WRAPS_PER_TRANSACTION, side by side, each storing every wrap with a check that its member
   * still is one: a member removed meanwhile never gets a wrap (that transaction is refused whole,
   * member_missing, and the keeper hands out what is missing). The epoch is read before the
   * writes, not checked in them (each transaction would conflict with the others on the group's
   * item): epochs only grow, so a wrap stored late belongs to an epoch its member had.
   */
  export async function store(actor: Actor, groupId: number, body: z.input<typeof wrapsBody>) {
    const input = valid(wrapsBody, body);
    const { me, group } = await groupAccess(actor, groupId, "manage");
    const users = input.wraps.map((w) => w.user_id);
    if (new Set(users).size !== users.length) fail("validation", { fields: { wraps: ["One wrap per member."] } });
    if (input.epoch !== group.epoch) fail("epoch_stale");
    const members = new Set((await membersOf(groupId)).map((m) => m.userId));
    if (users.some((uid) => !members.has(uid))) fail("member_missing");
    const parts: (typeof input.wraps)[] = [];
    for (let i = 0; i < input.wraps.length; i += WRAPS_PER_TRANSACTION) parts.push(input.wraps.slice(i, i + WRAPS_PER_TRANSACTION));
    const results = await Promise.all(
      parts.map((part) =>
        writeTransaction((tx) =>
          part.flatMap((w) => [
            // Still a member; a wrap made now is for the key they hold now.
            tx.groupmember
              .patch({ groupId, userId: w.user_id })
              .remove(["keyMovedAt"])
              .where((attr, op) => op.exists(attr.userId))
              .commit(),
            wrapItem(tx, groupId, input.epoch, w.user_id, w.wrap, me.uid),
          ]),
        ),
      ),
    );
    if (results.some((r) => r.canceled)) fail("member_missing");
    return { stored: users };
  }

  /**
   * GET /api/groups/{id}/wraps/status: members without a wrap of the current epoch (who have an
   * account key: an administrator's browser completes them) and members without a key yet.
   */
  export async function status(actor: Actor, groupId: number) {
    const { group } = await groupAccess(actor, groupId, "analyse");
    return gaps(group);
  }

  export async function gaps(group: GroupItem) {
    const [members, wraps] = await Promise.all([
      membersOf(group.id),
      db().entities.groupwrap.query.byEpoch({ groupId: group.id }).begins({ epoch: group.epoch }).go({ pages: "all" }),
    ]);
    const wrapped = new Set(wraps.data.filter((w) => w.epoch === group.epoch).map((w) => w.userId));
    const lacking = members.map((m) => m.userId).filter((uid) => !wrapped.has(uid));
    const keys = await Promise.all(lacking.map(async (uid) => [uid, sealable(await currentKey(uid))] as const));
    return {
      epoch: group.epoch,
      members: members.length,
      missing_wraps: keys.filter(([, has]) => has).map(([uid]) => uid),
      missing_keys: keys.filter(([, has]) => !has).map(([uid]) => uid),
      moved_keys: members.filter((m) => m.keyMovedAt !== undefined).map((m) => m.userId),
      log_head: group.logSeq,
      needs_rekey: group.needsRekey,
    };
  }
}
