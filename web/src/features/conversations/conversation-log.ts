import type { Body } from "@sealwork/contracts";
import { type LogHead, type SignedMembershipEntry, type VerifiedLog, membershipContainer, verifyLog } from "@sealwork/crypto";
import { call } from "../../lib/api";
import { TEST_CHECKS, checkOff } from "../../lib/build-settings";
import { rememberHead, rememberedHead } from "../../lib/pins";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { bindConversationKey } from "./conversation-crypto";
import { type LogReply, type Ring, headCheck, verifyDistribution } from "./distribution";
import { ringCache } from "./ring-cache";
import { keysOfPerson, myIdentity, signerLookup } from "./signers";

/**
 * GET and POST /api/conversations/{id}/log, and the verified keys of each open conversation
 * (distribution.ts), kept for the page's life: opened once, again when the server reports
 * another epoch or a change of the people, and forgotten after one's own change.
 */

/** GET /api/conversations/{id}/log: the log, each epoch's record and link, and one's copy. */
export function fetchLog(id: number, signal?: AbortSignal): Promise<LogReply> {
  return call("GET /api/conversations/{id}/log", { params: { id }, signal });
}

/** POST /api/conversations/{id}/log: signed entries with what they need (signed-changes.ts makes them). */
export function postLog(id: number, body: Body<"POST /api/conversations/{id}/log">) {
  return call("POST /api/conversations/{id}/log", { params: { id }, body });
}

const rings = ringCache<Ring>();

/**
 * The conversation's verified keys: the log checked against the head this client remembers (kept
 * with its pins, so another browser of the user checks against it too), which then moves on.
 */
export function openRing(id: number, holder: UnlockedKeys, log?: Promise<LogReply>): Promise<Ring> {
  return rings.open(id, holder, async () => {
    const [reply, me, remembered] = await Promise.all([log ?? fetchLog(id), myIdentity(holder), rememberedHead(holder, id)]);
    // Everyone the log names looked up at once, not one after the other as it is replayed and messages open.
    const named = reply.entries.flatMap((e) => {
      const entry = e.record as { author?: unknown; subject?: { userId?: unknown } | null } | undefined;
      return [entry?.author, entry?.subject?.userId];
    });
    for (const uid of new Set(named)) if (typeof uid === "number") keysOfPerson(holder, uid).catch(() => undefined);
    const [as, head] = TEST_CHECKS ? await weakened(id, reply, holder, remembered) : [id, remembered];
    const ring = await verifyDistribution(as, reply, me, signerLookup(holder), head);
    await rememberHead(holder, ring.conversationId, ring.log.head);
    bindConversationKey(ring.key, ring.conversationId, ring.epoch);
    return { ...ring, checkHead: headCheck(ring.log, (log) => newerLog(ring.conversationId, holder, log)) };
  });
}

/**
 * The conversation's log as the server serves it now, verified to continue `log` (its head: else
 * log_fork) and remembered: what a message naming a head beyond `log` is looked for in.
 */
async function newerLog(id: number, holder: UnlockedKeys, log: VerifiedLog): Promise<VerifiedLog> {
  const reply = await fetchLog(id);
  const next = await verifyLog(membershipContainer("conversation", id), reply.entries as unknown as SignedMembershipEntry[], signerLookup(holder), log.head);
  await rememberHead(holder, id, next.head);
  return next;
}

/**
 * Test build only (test/malicious, web/src/lib/build-settings.ts): the conversation a log answer
 * is verified as, and the head it must hold, with "container-binding" or "log-head" off.
 */
async function weakened(id: number, reply: LogReply, holder: UnlockedKeys, remembered: LogHead | undefined): Promise<[number, LogHead | undefined]> {
  let as = id;
  if (checkOff("container-binding")) {
    // Whichever conversation the answer's log names (its first entry's container).
    const named = /^conversation:(\d+)$/.exec(String((reply.entries[0]?.record as { container?: unknown } | undefined)?.container));
    if (named) as = Number(named[1]);
  }
  if (checkOff("log-head")) return [as, undefined];
  return [as, as === id ? remembered : await rememberedHead(holder, as)];
}

/** Whether this conversation's keys are open (or opening) already. */
export const hasRing = rings.has;

/** Forgets a conversation's keys (after a change of its people, or news of one). */
export const forgetRing = rings.forget;

/** Whether the ring held for `id` is behind the log head seq the poll names (ring-cache.ts, `behind`); if so it is forgotten. */
export const ringBehind = rings.behind;

/** What a page's answer says of the conversation, to tell whether the ring is behind. */
export interface Seen {
  epoch: number;
  needs_rekey: boolean;
  participants: { user_id: number }[];
}

/** The ring, opened afresh when a page's answer says it is behind (another epoch, a rekey done or pending, other people). */
export async function currentRing(id: number, holder: UnlockedKeys, seen?: Seen, log?: Promise<LogReply>): Promise<Ring> {
  const ring = await openRing(id, holder, log);
  const people = (list: number[]) => [...list].sort((a, b) => a - b).join();
  if (
    seen &&
    (seen.epoch !== ring.epoch || seen.needs_rekey !== ring.log.needsRekey || people(seen.participants.map((p) => p.user_id)) !== people(ring.log.members.map((m) => m.userId)))
  ) {
    forgetRing(id);
    return openRing(id, holder);
  }
  return ring;
}
