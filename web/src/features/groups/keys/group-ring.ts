import type { Response } from "@sealwork/contracts";
import {
  type VerifiedKey,
  type GroupRecord,
  type SignedGroup,
  type SignedMembershipEntry,
  type VerifiedLog,
  membershipContainer,
  openGroupEpochLink,
  openGroupKey,
  verifyGroupRecord,
  verifyLog,
} from "@sealwork/crypto";
import { call } from "../../../lib/api";
import { TEST_CHECKS, checkOff } from "../../../lib/build-settings";
import { handOverBundles } from "../../../lib/trust";
import { rememberHead, rememberedHead } from "../../../lib/pins";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { type KeyRing, type RingKind, headCheck, keysOfPerson, myIdentity, myKey, ringCache, signerLookup, verifyRing } from "../../conversations";
import { GroupKeyWaitingError } from "./key-waiting";
import { ns } from "./i18n";

/**
 * A group's verified keys (docs/protocol.md §8, "Group keys with epochs", "What a client checks
 * before it uses a group key"): the membership log `group:<id>` against the head this client
 * remembers (kept with the conversations' heads in the encrypted pins), each epoch's signed group
 * record against the log, one's own copy of the current epoch's key (sealed and signed by an
 * admin of that epoch, the committed key), earlier epochs through the chain. The same machinery as
 * a conversation's (conversations/distribution.ts, verifyRing): only the group's kind differs.
 */

export type GroupLogReply = Response<"GET /api/groups/{id}/log">;
export type MyWraps = Response<"GET /api/groups/{id}/wraps">;

/** A group's verified key ring. */
export interface GroupRing extends KeyRing<GroupRecord> {
  groupId: number;
}

/** One's copy of the current epoch's key is not there yet: the page waits (wrap-wait.ts looks for it). */
export { GroupKeyWaitingError };

export function groupKind(groupId: number): RingKind<GroupRecord> {
  return {
    container: membershipContainer("group", groupId),
    of: ns,
    named: (signed) => (signed as Partial<SignedGroup>).record?.members,
    verifyRecord: (signed, log, keysOf) => verifyGroupRecord(signed as SignedGroup, log, keysOf),
    openCopy: (copy, record, log, me, keysOf) => openGroupKey(copy, record, log, me, keysOf, { extractable: true }),
    openLink: (next, link, previous) => openGroupEpochLink(next, link, previous, { extractable: true }),
    loadEpoch: (epoch) => call("GET /api/groups/{id}/epochs/{epoch}", { params: { id: groupId, epoch } }),
  };
}

/** GET /api/groups/{id}/log with the current epoch's record and link only (older ones come as the ring needs them: `loadEpoch`). */
export function fetchGroupLog(id: number): Promise<GroupLogReply> {
  return call("GET /api/groups/{id}/log", { params: { id }, query: { epochs: "current" } });
}

/** GET /api/groups/{id}/wraps: one's own copies, oldest epoch first. */
export function fetchMyWraps(id: number, signal?: AbortSignal): Promise<MyWraps> {
  return call("GET /api/groups/{id}/wraps", { params: { id }, signal });
}

/**
 * The members' identities in one request (GET /api/keypairs/target?type=group), handed to the
 * identity look-ups that verifying the ring makes for everyone the log names: a group of 1,000
 * is one request, not 1,000. Without it (a refusal, a network error) each is asked for alone.
 */
async function fetchMemberBundles(id: number): Promise<void> {
  const targets = await call("GET /api/keypairs/target", { query: { type: "group", id } }).catch(() => []);
  handOverBundles(targets.flatMap((t) => (t.identity ? [[t.user_id, t.identity] as const] : [])));
}

/** The entries of a log reply, in order. */
export const logEntries = (reply: GroupLogReply): SignedMembershipEntry[] => reply.entries.map((e) => e.entry as unknown as SignedMembershipEntry);

/**
 * Verifies a group's ring from the server's answers for `holder`, and remembers the head. No copy
 * of the current epoch (or no log yet): GroupKeyWaitingError; anything that does not verify: a
 * DistributionError (its reason is the screen's data-trust-warning).
 */
export async function verifyGroupRing(groupId: number, holder: UnlockedKeys, reply: GroupLogReply, wraps: MyWraps): Promise<GroupRing> {
  const [me, remembered] = await Promise.all([myIdentity(holder), rememberedHead(holder, { group: groupId })]);
  const entries = logEntries(reply);
  const copy = [...wraps.wraps].reverse().find((w) => w.epoch === reply.epoch)?.wrap ?? null;
  if (entries.length === 0 || !copy) throw new GroupKeyWaitingError(groupId);
  // Everyone the log names looked up at once, not one after the other as it is replayed.
  const named = new Set(entries.flatMap((e) => [e.record?.author, e.record?.subject?.userId]));
  for (const uid of named) if (typeof uid === "number") keysOfPerson(holder, uid).catch(() => undefined);
  // Test build only (test/malicious): with "log-head" off no head is compared, so a fork or a rollback is taken.
  const head = TEST_CHECKS && checkOff("log-head") ? undefined : remembered;
  const ring = await verifyRing(groupKind(groupId), { entries, epochs: reply.epochs, copy }, me, signerLookup(holder), head);
  await rememberHead(holder, { group: groupId }, ring.log.head);
  return { groupId, ...ring, checkHead: headCheck(ring.log, (log) => newerGroupLog(groupId, holder, log), ns) };
}

/** The group's log as the server serves it now, verified to continue `log` (else log_fork) and remembered: where a message's head beyond `log` is looked for. */
async function newerGroupLog(groupId: number, holder: UnlockedKeys, log: VerifiedLog): Promise<VerifiedLog> {
  const next = await verifyLog(membershipContainer("group", groupId), logEntries(await fetchGroupLog(groupId)), signerLookup(holder), log.head);
  await rememberHead(holder, { group: groupId }, next.head);
  return next;
}

const rings = ringCache<GroupRing>();

/** The group's verified keys, kept until forgotten (a change of its members, or news of one). A failure is not kept. */
export function openGroupRing(groupId: number, holder: UnlockedKeys): Promise<GroupRing> {
  return rings.open(groupId, holder, () =>
    Promise.all([fetchGroupLog(groupId), fetchMyWraps(groupId), fetchMemberBundles(groupId)]).then(([reply, wraps]) => verifyGroupRing(groupId, holder, reply, wraps)),
  );
}

export const forgetGroupRing = rings.forget;

/** Whether the ring held for the group is behind the log head seq a page or the poll names (ring-cache.ts, `behind`); if so it is forgotten. */
export const groupRingBehind = rings.behind;

/**
 * The verified keys of these members to seal for: each one the group's log names, with the key it
 * names (anyone without one there, e.g. a member whose key is pending, is left out); one's own as
 * the account has it.
 */
export async function memberKeys(ring: GroupRing, holder: UnlockedKeys, ids: readonly number[]): Promise<VerifiedKey[]> {
  const keys = await Promise.all(
    ids.map(async (uid) => {
      if (uid === holder.uid) return myKey(holder);
      const entry = ring.log.members.find((m) => m.userId === uid);
      return entry ? ring.keysOf(uid, entry.keyId).catch(() => null) : null;
    }),
  );
  return keys.filter((k): k is VerifiedKey => k !== null);
}
