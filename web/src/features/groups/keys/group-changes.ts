import { type Body, WRAPS_MAX } from "@sealwork/contracts";
import {
  type GroupRecord,
  type IdentityKeys,
  type Key,
  type KeyRef,
  type SignedMembershipEntry,
  type VerifiedKey,
  type VerifiedLog,
  createGroupRecord,
  generateSymmetricKey,
  membershipContainer,
  sealGroupEpochLink,
  sealGroupKey,
} from "@sealwork/crypto";
import { call } from "../../../lib/api";
import { type Contact, contactKey, isTrustError } from "../../../lib/trust";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { extend, json, keyOf, myIdentity, myKey, newLog, onNewest, ref, signerLookup, withKeys } from "../../conversations";
import { type GroupRing, forgetGroupRing, openGroupRing } from "./group-ring";

/**
 * Every change of a group's members, signed by this client (docs/protocol.md §8, "The flows"): the
 * log entries, the group record for the new head, a signed copy (wrap) of the epoch key for whoever
 * needs one and, for a new epoch, a new key that carries the previous one. The server's routes
 * (docs/api.md, Group keys) store them; it reads none of it. The log work is the conversations'
 * (extend, withKeys, onNewest), the keys sealed for come from lib/trust.ts.
 */

/** Entries per POST …/log, wraps per POST …/wraps (the server's limits). */
const LOG_CHUNK = 20;
const WRAPS_CHUNK = WRAPS_MAX;

type Wrap = { user_id: number; wrap: Record<string, unknown> };

function postLog(id: number, body: Body<"POST /api/groups/{id}/log">) {
  return call("POST /api/groups/{id}/log", { params: { id }, body });
}

/** Stores wraps of `epoch`, in the server's chunks. */
async function postWraps(id: number, epoch: number, wraps: Wrap[]) {
  for (let i = 0; i < wraps.length; i += WRAPS_CHUNK) await call("POST /api/groups/{id}/wraps", { params: { id }, body: { epoch, wraps: wraps.slice(i, i + WRAPS_CHUNK) } });
}

const byUser = (list: KeyRef[]) => [...list].sort((a, b) => a.userId - b.userId);

/** The record for `log` and a wrap of `key` for each of `recipients`. */
async function recordAndWraps(key: Key, members: KeyRef[], log: VerifiedLog, recipients: VerifiedKey[], me: IdentityKeys) {
  const signed = await createGroupRecord(key, byUser(members), log, me);
  const wraps = await Promise.all(recipients.map(async (to) => ({ user_id: to.userId, wrap: json(await sealGroupKey(key, signed.record, log, to, me)) })));
  return { record: signed, wraps };
}

/** A person's verified key, or null while they have none (a pending member). Any other refusal stops the change. */
async function keyOrPending(holder: UnlockedKeys, uid: number): Promise<Contact | null> {
  try {
    return await contactKey(holder, uid);
  } catch (error) {
    if (isTrustError(error, "no_key")) return null;
    throw error;
  }
}

function onNewestRing<T>(id: number, holder: UnlockedKeys, change: (ring: GroupRing) => Promise<T>): Promise<T> {
  return onNewest(
    () => forgetGroupRing(id),
    () => openGroupRing(id, holder),
    change,
  );
}

const currentRecord = (ring: GroupRing): GroupRecord => ring.records.get(ring.epoch)!;

/**
 * The group's first log, key, record and wraps, made by its creator right after POST /api/groups:
 * `create`, an `add` for each initial member with a verified key (the others are pending: an
 * admin's browser completes them when their key appears), a fresh epoch-0 key, the record and a
 * wrap for everyone named (the creator included). Answers who is left pending.
 */
export async function startGroupKeys(id: number, holder: UnlockedKeys, members: number[]): Promise<number[]> {
  const me = await myIdentity(holder);
  const others = [...new Set(members)].filter((uid) => uid !== holder.uid);
  const [self, found] = await Promise.all([myKey(holder), Promise.all(others.map((uid) => keyOrPending(holder, uid).catch(() => null)))]);
  const keys = [self, ...found.flatMap((c) => (c ? [keyOf(c)] : []))];
  const pending = others.filter((_, i) => !found[i]);
  const container = membershipContainer("group", id);
  const keysOf = withKeys(signerLookup(holder), keys);
  const { all, log } = await extend(await newLog(container, me, keysOf), keys.slice(1).map((k) => ({ action: "add" as const, subject: ref(k), at: Date.now() })), me, keysOf);
  const key = await generateSymmetricKey();
  const { record, wraps } = await recordAndWraps(key, keys.map(ref), log, keys, me);
  for (let i = 0; i < all.length; i += LOG_CHUNK) {
    const last = i + LOG_CHUNK >= all.length;
    await postLog(id, { head: i - 1, entries: all.slice(i, i + LOG_CHUNK).map(json), ...(last ? { record: json(record) } : {}) });
  }
  await postWraps(id, log.epoch, wraps);
  forgetGroupRing(id);
  return pending;
}

/** The keys of a group whose creator's browser made none (the keeper's part): startGroupKeys with its members as the server lists them. */
export async function startMissingGroupKeys(id: number, holder: UnlockedKeys): Promise<number[]> {
  const { members } = await call("GET /api/groups/{id}/members", { params: { id } });
  return startGroupKeys(id, holder, members.map((m) => m.id));
}

/** The entries, record and wrap that add `newcomer` to the ring's group (same epoch, same key). */
async function signedAdd(ring: GroupRing, holder: UnlockedKeys, newcomer: VerifiedKey) {
  const me = await myIdentity(holder);
  const keysOf = withKeys(ring.keysOf, [newcomer]);
  const { entries, log } = await extend(ring, [{ action: "add", subject: ref(newcomer), at: Date.now() }], me, keysOf);
  const members = [...currentRecord(ring).members.filter((p) => log.members.some((m) => m.userId === p.userId)), ref(newcomer)];
  const { record, wraps } = await recordAndWraps(ring.key, members, log, [newcomer], me);
  return { entries, log, record, wrap: wraps[0]!.wrap };
}

/**
 * Adds a member (POST …/assignMember): with a verified key, the `add` entry and their wrap of the
 * current epoch in the same transaction, and the record that names them; without a key yet,
 * the server holds them as pending (completePending gives them the rest once their key appears).
 */
export async function addGroupMember(id: number, holder: UnlockedKeys, uid: number) {
  const contact = await keyOrPending(holder, uid);
  if (!contact) return call("POST /api/groups/{id}/assignMember", { params: { id }, body: { member_uid: uid } });
  return onNewestRing(id, holder, async (ring) => {
    const { entries, log, record, wrap } = await signedAdd(ring, holder, keyOf(contact));
    return call("POST /api/groups/{id}/assignMember", {
      params: { id },
      body: { member_uid: uid, log: { head: ring.log.head.seq, entries: entries.map(json) }, wrap: { epoch: log.epoch, wrap, record: json(record) } },
    });
  });
}

/**
 * The next epoch after `changes` (a removal, or nothing after someone left): the `rekey`, a new key
 * wrapped for everyone who stays (their current verified keys), the record, and the link that
 * carries the previous key. `first` sends the entries before the rekey (the removal's transaction).
 */
async function nextEpoch(
  ring: GroupRing,
  holder: UnlockedKeys,
  changes: SignedMembershipEntry["record"]["action"][],
  subject: KeyRef | null,
  first?: (entries: Record<string, unknown>[]) => Promise<unknown>,
  /** The key the holder is renewing theirs to: their own wrap is for it (renewGroupKey). */
  renewedTo?: UnlockedKeys,
) {
  const me = await myIdentity(holder);
  const steps = [...changes.map((action) => ({ action: action as "remove", subject, at: Date.now() })), { action: "rekey" as const, subject: null, at: Date.now() }];
  const { entries, log } = await extend(ring, steps, me, ring.keysOf);
  const stay = await Promise.all(log.members.map((m) => (m.userId === holder.uid ? myKey(renewedTo ?? holder) : contactKey(holder, m.userId).then(keyOf))));
  const key = await generateSymmetricKey();
  const { record, wraps } = await recordAndWraps(key, stay.map(ref), log, stay, me);
  const link = await sealGroupEpochLink(key, ring.key, { groupId: ring.groupId, epoch: log.epoch });
  const before = entries.slice(0, -1).map(json);
  let head = ring.log.head.seq;
  if (before.length > 0 && first) {
    await first(before);
    head += before.length;
  }
  await postLog(ring.groupId, { head, entries: [json(entries.at(-1)!)], record: json(record), rekey: { epoch: log.epoch, link } });
  await postWraps(ring.groupId, log.epoch, wraps);
}

/**
 * Removes a member (POST …/revokeMember with the signed `remove`), then starts the next epoch:
 * they hold no key of it. A pending member (not in the log) is only revoked.
 */
export function removeGroupMember(id: number, holder: UnlockedKeys, uid: number) {
  return onNewestRing(id, holder, async (ring) => {
    const subject = ring.log.members.find((m) => m.userId === uid);
    if (!subject) return call("POST /api/groups/{id}/revokeMember", { params: { id }, body: { member_uid: uid } });
    let result: unknown;
    await nextEpoch(ring, holder, ["remove"], subject, async (entries) => {
      result = await call("POST /api/groups/{id}/revokeMember", { params: { id }, body: { member_uid: uid, log: { head: ring.log.head.seq, entries } } });
    });
    return result;
  });
}

/**
 * While this member renews their account key (Settings, "Renew my key"; the new one registered
 * already, the held one still in memory): in a group they are the only administrator of, the next
 * epoch with their own wrap for the new key, opened and signed with the held one. Without it such a
 * group would wait for good: nobody else may start an epoch, and their wrap of the current one is
 * for the key they no longer hold. A group with other administrators is left to their keepers,
 * which start the epoch and then keep the restricted pages' keys (keeper.ts): the key-moved job
 * names the member until then. Answers whether it started one.
 */
export function renewGroupKey(id: number, holder: UnlockedKeys, renewedTo: UnlockedKeys): Promise<boolean> {
  return onNewestRing(id, holder, async (ring) => {
    if (ring.log.admins.length !== 1 || ring.log.admins[0] !== holder.uid) return false;
    await nextEpoch(ring, holder, [], null, undefined, renewedTo);
    return true;
  });
}

/** Leaves: the signed `leave` alone (the leaver must not make the next key; the next admin browser does). */
export async function leaveGroup(id: number, holder: UnlockedKeys) {
  const ring = await openGroupRing(id, holder).catch(() => null);
  forgetGroupRing(id);
  const mine = ring?.log.members.find((m) => m.userId === holder.uid);
  // The last admin may not leave (the log refuses it): the server says so in its words (member_zeroadmin).
  const lastAdmin = ring?.log.admins.length === 1 && ring.log.admins[0] === holder.uid;
  if (!ring || !mine || lastAdmin) return call("POST /api/groups/{id}/revokeMember", { params: { id }, body: { member_uid: holder.uid } });
  const me = await myIdentity(holder);
  const { entries } = await extend(ring, [{ action: "leave", subject: mine, at: Date.now() }], me, ring.keysOf);
  return call("POST /api/groups/{id}/revokeMember", { params: { id }, body: { member_uid: holder.uid, log: { head: ring.log.head.seq, entries: entries.map(json) } } });
}

/** Promotes a member to group admin for good: the server's flag, then the signed `promote` (no record: the epoch and key stay). */
export async function promoteGroupMember(id: number, holder: UnlockedKeys, uid: number) {
  const result = await call("POST /api/groups/{id}/makeAdminMember", { params: { id }, body: { member_uid: uid } });
  await onNewestRing(id, holder, async (ring) => {
    const subject = ring.log.members.find((m) => m.userId === uid);
    if (!subject || ring.log.admins.includes(uid)) return;
    const me = await myIdentity(holder);
    const { entries } = await extend(ring, [{ action: "promote", subject, at: Date.now() }], me, ring.keysOf);
    await postLog(id, { head: ring.log.head.seq, entries: entries.map(json) });
  });
  return result;
}

/**
 * What an admin's browser completes without anyone clicking (docs/protocol.md §8: pending members,
 * a rekey after a leave, members whose key moved): the next epoch when the log waits for one or
 * someone's wrap is for a key they no longer hold (`moved`: renewed, or reset after they lost it;
 * the new epoch is sealed for everyone's current keys and its chain reaches back); for each member
 * the server names as lacking a wrap of the current epoch, the signed `add` and record when the
 * log does not have them yet (a pending member whose key appeared), and their wrap. Answers who
 * was completed.
 */
export async function completeGroupKeys(id: number, holder: UnlockedKeys, missing: number[], moved: number[] = []): Promise<number[]> {
  forgetGroupRing(id);
  let ring = await openGroupRing(id, holder);
  if (!ring.log.admins.includes(holder.uid)) return [];
  const done: number[] = [];
  if (ring.log.needsRekey || moved.length > 0) {
    await nextEpoch(ring, holder, [], null);
    forgetGroupRing(id);
    return ring.log.members.map((m) => m.userId).filter((uid) => missing.includes(uid) || moved.includes(uid));
  }
  for (const uid of missing) {
    const contact = await keyOrPending(holder, uid);
    if (!contact) continue;
    const key = keyOf(contact);
    const named = currentRecord(ring).members.find((m) => m.userId === uid);
    if (!ring.log.members.some((m) => m.userId === uid)) {
      const { entries, log, record, wrap } = await signedAdd(ring, holder, key);
      await postLog(id, { head: ring.log.head.seq, entries: entries.map(json), record: json(record) });
      await postWraps(id, log.epoch, [{ user_id: uid, wrap }]);
    } else if (named?.keyId === key.keyId) {
      await postWraps(id, ring.epoch, [await wrapFor(ring, holder, key)]);
    } else continue;
    done.push(uid);
    forgetGroupRing(id);
    ring = await openGroupRing(id, holder);
  }
  return done;
}

/** A wrap of the ring's current key for a member its record names already. */
async function wrapFor(ring: GroupRing, holder: UnlockedKeys, to: VerifiedKey): Promise<Wrap> {
  const me = await myIdentity(holder);
  return { user_id: to.userId, wrap: json(await sealGroupKey(ring.key, currentRecord(ring), ring.log, to, me)) };
}
