import type { Response } from "@sealwork/contracts";
import {
  type ConversationRecord,
  type IdentityKeys,
  type Key,
  type KeysOf,
  type LogHead,
  type SignedConversation,
  type SignedMembershipEntry,
  type SignedSealedKey,
  type VerifiedLog,
  isCryptoError,
  membershipContainer,
  openConversationKey,
  openEpochLink,
  openSignedConversationKey,
  verifyConversationRecord,
  verifyLog,
} from "@sealwork/crypto";
import { TEST_CHECKS, checkOff } from "../../lib/build-settings";
import { i18next } from "../../lib/i18n";
import { TrustError } from "../../lib/trust";
import "./i18n";

/**
 * What a member checks before using a protocol v2 conversation's key (docs/protocol.md §14.8):
 * the membership log replayed from its first entry and holding the head this client remembers;
 * each epoch's conversation record against the log; their own copy, sealed and signed by a
 * participant, opening to the key the record commits to; each earlier epoch's key through the
 * chain, checked against that epoch's record. Nothing here takes the server's word: a failure is
 * a DistributionError whose reason the screen shows (and a browser test can assert).
 */

export type LogReply = Response<"GET /api/conversations/{id}/log">;

/**
 * Why a conversation's keys are refused, as the screen shows it (data-trust-warning):
 * log_fork: the log lacks the head this browser saw (another history, or an older one);
 * log_invalid: an entry that is not signed by someone with the right, or does not continue the log;
 * ghost_participant: a record names people who are not the log's members;
 * record_invalid: a record that does not verify otherwise;
 * copy_invalid: one's copy of the key was not sealed and signed by a participant, or is not the committed key.
 */
export type DistributionProblem = "log_fork" | "log_invalid" | "ghost_participant" | "record_invalid" | "copy_invalid";

export class DistributionError extends Error {
  readonly reason: DistributionProblem;
  constructor(reason: DistributionProblem, options: { cause?: unknown } = {}) {
    super(i18next.t(`conversations:distribution.${reason}`), options);
    this.name = "DistributionError";
    this.reason = reason;
  }
}

export function isDistributionError(error: unknown): error is DistributionError {
  return error instanceof DistributionError;
}

/** A conversation whose log waits for a new key after someone left: nothing is sent until an admin makes it. */
export class RekeyPendingError extends Error {
  constructor() {
    super(i18next.t("conversations:distribution.rekeyPending"));
    this.name = "RekeyPendingError";
  }
}

/** A verified conversation's keys and state: what reading and writing use. */
export interface Ring {
  conversationId: number;
  log: VerifiedLog;
  /** The log's entries as verified (a change appends to them). */
  entries: SignedMembershipEntry[];
  /** The verified record of each epoch (the newest the server holds for it). */
  records: Map<number, ConversationRecord>;
  /** The log's current epoch. */
  epoch: number;
  /** That epoch's key (extractable: it is sealed for newcomers and carried by the next epoch). Stays in this module's callers. */
  key: Key;
  /** The key of any epoch up to the current one, through the chain (each checked against its record). */
  keyFor(epoch: number): Promise<Key>;
  /** Who was a member at some moment of each epoch (whose messages of that epoch are theirs to sign). */
  membersOf(epoch: number): Set<number>;
  /** Whether new content may be written: the current epoch has a record and no rekey is pending. */
  writable: boolean;
  keysOf: KeysOf;
}

/** A lookup failure that is the network's, not a key's: the load fails, nothing is refused. */
function networkCause(error: unknown): unknown {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof TrustError && cause.reason === "lookup" ? cause : null;
}

function refuse(reason: DistributionProblem, error: unknown): never {
  if (!isCryptoError(error)) throw error;
  const network = networkCause(error);
  if (network) throw network;
  throw new DistributionError(error.code === "log_fork" ? "log_fork" : reason, { cause: error });
}

const ids = (list: readonly { userId: number }[]) => list.map((p) => p.userId).join();

/**
 * Verifies a conversation's log reply for `me` and opens their copy. `remembered` is the head this
 * client verified before (undefined: none; the first sight is trusted as it is).
 */
export async function verifyDistribution(conversationId: number, reply: LogReply, me: IdentityKeys, keysOf: KeysOf, remembered?: LogHead): Promise<Ring> {
  const container = membershipContainer("conversation", conversationId);
  let log: VerifiedLog;
  try {
    log = await verifyLog(container, reply.entries as unknown as SignedMembershipEntry[], keysOf, remembered);
  } catch (error) {
    refuse("log_invalid", error);
  }
  const records = new Map<number, ConversationRecord>();
  for (const { epoch, record } of reply.epochs) {
    if (!record) continue;
    const signed = record as unknown as SignedConversation;
    // Test build only: the record as the server serves it ("members-from-log" off).
    if (TEST_CHECKS && checkOff("members-from-log")) {
      records.set(epoch, signed.record);
      continue;
    }
    // A record naming someone the log did not have at its head: a ghost participant.
    const state = log.history[signed.record?.logHead?.seq];
    if (state && state.head.hash === signed.record.logHead.hash && Array.isArray(signed.record.participants) && ids(signed.record.participants) !== ids(state.members)) {
      throw new DistributionError("ghost_participant");
    }
    try {
      const verified = await verifyConversationRecord(signed, log, keysOf);
      if (verified.epoch !== epoch) throw new DistributionError("record_invalid");
      records.set(epoch, verified);
    } catch (error) {
      if (isDistributionError(error)) throw error;
      refuse("record_invalid", error);
    }
  }
  const current = records.get(log.epoch);
  if (!current || !reply.copy) throw new DistributionError("copy_invalid");
  let key: Key;
  try {
    const copy = reply.copy as unknown as SignedSealedKey;
    // Test build only: any copy that opens, as protocol v1 took it ("copy-signature" off).
    if (TEST_CHECKS && checkOff("copy-signature")) key = (await openConversationKey(copy.sealed, me.keys.encrypt, { conversationId, epoch: log.epoch, extractable: true })).key;
    else key = await openSignedConversationKey(copy, current, me, keysOf);
  } catch (error) {
    refuse("copy_invalid", error);
  }
  return ring(conversationId, log, records, key, reply, keysOf);
}

function ring(conversationId: number, log: VerifiedLog, records: Map<number, ConversationRecord>, key: Key, reply: LogReply, keysOf: KeysOf): Ring {
  const links = new Map(reply.epochs.map((e) => [e.epoch, e.link]));
  const keys = new Map<number, Promise<Key>>([[log.epoch, Promise.resolve(key)]]);
  const keyFor = (epoch: number): Promise<Key> => {
    let found = keys.get(epoch);
    if (!found) {
      if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > log.epoch) return Promise.reject(new DistributionError("copy_invalid"));
      // Epoch e's key is carried by e+1's: walk back from the current one, each step checked against e's record.
      found = keyFor(epoch + 1).then((next) => {
        const link = links.get(epoch + 1);
        const record = records.get(epoch);
        if (!link || !record) throw new DistributionError("copy_invalid");
        return openEpochLink(next, link, record, { extractable: true }).catch((error: unknown) => refuse("copy_invalid", error));
      });
      keys.set(epoch, found);
    }
    return found;
  };
  const members = new Map<number, Set<number>>();
  for (const state of log.history) {
    const set = members.get(state.epoch) ?? new Set<number>();
    for (const m of state.members) set.add(m.userId);
    members.set(state.epoch, set);
  }
  return {
    conversationId,
    log,
    entries: reply.entries as unknown as SignedMembershipEntry[],
    records,
    epoch: log.epoch,
    key,
    keyFor,
    membersOf: (epoch) => members.get(epoch) ?? new Set(),
    writable: records.get(log.epoch) !== undefined && !log.needsRekey,
    keysOf,
  };
}
