import type { Response } from "@sealwork/contracts";
import {
  type ConversationRecord,
  type IdentityKeys,
  type Key,
  type KeysOf,
  type LogHead,
  type SignedConversation,
  type SignedMembershipEntry,
  type SignedMessage,
  type SignedMessagePlace,
  type SignedSealedKey,
  type VerifiedLog,
  MessageVouchers,
  checkMessageHead,
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
 * copy_invalid: one's copy of the key was not sealed and signed by a participant, or is not the committed key;
 * key_moved: the current epoch's verified record names another key of one's own than the one held
 * (one's key was renewed or reset since): nothing is wrong, the key waits for an admin's renewal.
 */
export type DistributionProblem = "log_fork" | "log_invalid" | "ghost_participant" | "record_invalid" | "copy_invalid" | "key_moved";

/** The namespaces that hold a ring's refusal texts (`distribution.<reason>`). */
export type RingTexts = "conversations" | "groupKeys";

export class DistributionError extends Error {
  readonly reason: DistributionProblem;
  /** key_moved: the log's epoch whose record named the old key (a later one may be for the key held: key-wait.ts looks for it). */
  readonly epoch?: number;
  /** `of`: the feature whose texts name the thing refused (its namespace has `distribution.<reason>`). */
  constructor(reason: DistributionProblem, options: { cause?: unknown; of?: RingTexts; epoch?: number } = {}) {
    super(i18next.t(`${options.of ?? "conversations"}:distribution.${reason}`), { cause: options.cause });
    this.name = "DistributionError";
    this.reason = reason;
    if (options.epoch !== undefined) this.epoch = options.epoch;
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

/**
 * A verified key ring of anything whose key is handed out through a signed membership log (a
 * conversation's, a group's: docs/protocol.md §8, §14.8): what reading and writing use.
 */
export interface KeyRing<R> {
  log: VerifiedLog;
  /** The log's entries as verified (a change appends to them). */
  entries: SignedMembershipEntry[];
  /** The verified record of each epoch (the newest the server holds for it). */
  records: Map<number, R>;
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
  /**
   * Checks the log head a verified message names against this ring's log, fetching the log again
   * for a head beyond it (headCheck below; set where the ring is opened: conversation-log.ts,
   * groups' group-ring.ts). Rejects with a DistributionError log_fork for a fork. Absent: heads are
   * not compared.
   */
  checkHead?: HeadCheck;
  /** What the messages opened with this ring taught it (openRingMessages, sealForRing). */
  chain: MessageChain;
}

/**
 * A reader's and sender's memory of a ring's messages (docs/protocol.md, "Messages vouched for by
 * the next one"): the digests authentic messages named as their senders' previous ones (so older
 * pages open without checking each signature), and the digest of one's own newest message (which
 * one's next message names).
 */
export interface MessageChain {
  me: number;
  vouchers: MessageVouchers;
  own: { id: number; digest: string } | null;
}

/** A verified conversation's keys and state. */
export interface Ring extends KeyRing<ConversationRecord> {
  conversationId: number;
}

/** Checks the log head a verified message names against a ring's log; throws log_fork as a DistributionError. */
export type HeadCheck = (message: SignedMessage, place: SignedMessagePlace) => Promise<void>;

/**
 * The head check of a ring (docs/protocol.md §14.8, "Heads in messages"): a head in the ring's log
 * passes; one beyond it makes `newer` fetch and verify the log again (continuing the ring's) and
 * look there, once per head beyond the newest log fetched so far (concurrent messages share one
 * fetch); another hash at that seq, or a head still beyond, is log_fork: the sender was shown
 * another history than this reader. Other failures (a head of another epoch than its message's)
 * are CryptoErrors: the message is not verified.
 */
export function headCheck(log: VerifiedLog, newer: (log: VerifiedLog) => Promise<VerifiedLog>, of?: RingTexts): HeadCheck {
  let latest = log;
  let fetching: Promise<VerifiedLog> | null = null;
  const fetchNewer = (from: VerifiedLog) => {
    fetching ??= newer(from).then(
      (next) => {
        latest = next;
        fetching = null;
        return next;
      },
      (error: unknown) => {
        fetching = null;
        throw error;
      },
    );
    return fetching;
  };
  return async (message, place) => {
    try {
      await checkMessageHead(message, place, latest, fetchNewer);
    } catch (error) {
      if (isCryptoError(error, "log_fork")) throw new DistributionError("log_fork", { cause: error, of });
      throw error;
    }
  };
}

/** What differs between the kinds of key ring: the log's container, how a record, one's copy and a link are checked and opened. */
export interface RingKind<R extends { epoch: number }> {
  container: string;
  /** The namespace of the texts of a refusal (`distribution.<reason>`). */
  of: RingTexts;
  /** The people a record names (with the keys it seals for) before it is verified (to tell a ghost member from another failure). */
  named(signed: unknown): readonly { userId: number; keyId?: string }[] | undefined;
  verifyRecord(signed: unknown, log: VerifiedLog, keysOf: KeysOf): Promise<R>;
  openCopy(copy: SignedSealedKey, record: R, log: VerifiedLog, me: IdentityKeys, keysOf: KeysOf): Promise<Key>;
  openLink(next: Key, link: string, previous: R): Promise<Key>;
  /** Test build only (web/src/lib/build-settings.ts): records taken as the server serves them, unchecked. */
  asServed?: boolean;
  /**
   * An older epoch's record and link, for a ring verified from the current epoch's alone (a
   * group's: GET …/epochs/{epoch}); each is checked as the up-front ones are when it arrives.
   */
  loadEpoch?(epoch: number): Promise<{ record: unknown; link: string | null }>;
}

/** What a ring is verified from: the log's entries, each epoch's record and link, one's copy of the current epoch's key. */
export interface RingInput {
  entries: SignedMembershipEntry[];
  epochs: readonly { epoch: number; record: unknown; link: string | null }[];
  copy: unknown;
}

/** A lookup failure that is the network's, not a key's: the load fails, nothing is refused. */
function networkCause(error: unknown): unknown {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof TrustError && cause.reason === "lookup" ? cause : null;
}

function refuse(reason: DistributionProblem, error: unknown, of?: RingTexts): never {
  if (!isCryptoError(error)) throw error;
  const network = networkCause(error);
  if (network) throw network;
  throw new DistributionError(error.code === "log_fork" ? "log_fork" : reason, { cause: error, of });
}

const ids = (list: readonly { userId: number }[]) => list.map((p) => p.userId).join();

/**
 * Verifies a key ring for `me` (docs/protocol.md §8 and §14.8, in this order): the log against the
 * head this client remembered (undefined: none; the first sight is trusted as it is), each epoch's
 * record against the log (a record naming someone the log did not have at its head: a ghost), one's
 * copy of the current epoch's key; earlier epochs open through the chain on demand.
 */
export async function verifyRing<R extends { epoch: number }>(kind: RingKind<R>, input: RingInput, me: IdentityKeys, keysOf: KeysOf, remembered?: LogHead): Promise<KeyRing<R>> {
  const fail = (reason: DistributionProblem) => new DistributionError(reason, { of: kind.of });
  let log: VerifiedLog;
  try {
    log = await verifyLog(kind.container, input.entries, keysOf, remembered);
  } catch (error) {
    refuse("log_invalid", error, kind.of);
  }
  const records = new Map<number, R>();
  for (const { epoch, record } of input.epochs) {
    if (record) records.set(epoch, await verifyEpochRecord(kind, log, keysOf, epoch, record));
  }
  const current = records.get(log.epoch);
  // The verified record seals this epoch for a key of one's own that is not the one held now.
  const mine = current ? kind.named(input.epochs.find((e) => e.epoch === log.epoch)?.record)?.find((p) => p.userId === me.userId) : undefined;
  if (mine?.keyId !== undefined && mine.keyId !== me.keyId) throw new DistributionError("key_moved", { of: kind.of, epoch: log.epoch });
  if (!current || !input.copy) throw fail("copy_invalid");
  let key: Key;
  try {
    key = await kind.openCopy(input.copy as SignedSealedKey, current, log, me, keysOf);
  } catch (error) {
    refuse("copy_invalid", error, kind.of);
  }
  return keyRing(kind, log, input, records, key, keysOf, me.userId);
}

/** One epoch's record, checked against the log (a ghost member, a record of another epoch or not signed by an admin at its head: refused). */
async function verifyEpochRecord<R extends { epoch: number }>(kind: RingKind<R>, log: VerifiedLog, keysOf: KeysOf, epoch: number, record: unknown): Promise<R> {
  const fail = (reason: DistributionProblem) => new DistributionError(reason, { of: kind.of });
  if (kind.asServed) return (record as { record: R }).record;
  const named = kind.named(record);
  const logHead = (record as { record?: { logHead?: LogHead } }).record?.logHead;
  const state = logHead ? log.history[logHead.seq] : undefined;
  if (state && logHead && state.head.hash === logHead.hash && Array.isArray(named) && ids(named) !== ids(state.members)) throw fail("ghost_participant");
  try {
    const verified = await kind.verifyRecord(record, log, keysOf);
    if (verified.epoch !== epoch) throw fail("record_invalid");
    return verified;
  } catch (error) {
    if (isDistributionError(error)) throw error;
    refuse("record_invalid", error, kind.of);
  }
}

/** The conversation's kind of ring (its records, copies and links; the test build's weakened checks). */
function conversationKind(conversationId: number): RingKind<ConversationRecord> {
  // Test build only: the record as the server serves it ("members-from-log" off), any copy that opens as protocol v1 took it ("copy-signature" off).
  const asServed = TEST_CHECKS && checkOff("members-from-log");
  const anyCopy = TEST_CHECKS && checkOff("copy-signature");
  return {
    container: membershipContainer("conversation", conversationId),
    of: "conversations",
    asServed,
    named: (signed) => (signed as Partial<SignedConversation>).record?.participants,
    verifyRecord: (signed, log, keysOf) => verifyConversationRecord(signed as SignedConversation, log, keysOf),
    openCopy: async (copy, record, log, me, keysOf) =>
      anyCopy ? (await openConversationKey(copy.sealed, me.keys.encrypt, { conversationId, epoch: log.epoch, extractable: true })).key : openSignedConversationKey(copy, record, me, keysOf),
    openLink: (next, link, previous) => openEpochLink(next, link, previous, { extractable: true }),
  };
}

/**
 * Verifies a conversation's log reply for `me` and opens their copy. `remembered` is the head this
 * client verified before (undefined: none; the first sight is trusted as it is).
 */
export async function verifyDistribution(conversationId: number, reply: LogReply, me: IdentityKeys, keysOf: KeysOf, remembered?: LogHead): Promise<Ring> {
  const input = { entries: reply.entries as unknown as SignedMembershipEntry[], epochs: reply.epochs, copy: reply.copy };
  return { conversationId, ...(await verifyRing(conversationKind(conversationId), input, me, keysOf, remembered)) };
}

function keyRing<R extends { epoch: number }>(kind: RingKind<R>, log: VerifiedLog, input: RingInput, records: Map<number, R>, key: Key, keysOf: KeysOf, me: number): KeyRing<R> {
  const links = new Map(input.epochs.map((e) => [e.epoch, e.link]));
  // Epochs the server did not serve up front, asked for once each and checked on arrival.
  const loaded = new Map<number, Promise<void>>();
  const ensure = (epoch: number): Promise<void> => {
    if (records.has(epoch) && links.has(epoch)) return Promise.resolve();
    if (!kind.loadEpoch) return Promise.resolve();
    let found = loaded.get(epoch);
    if (!found) {
      found = kind.loadEpoch(epoch).then(async ({ record, link }) => {
        links.set(epoch, link);
        if (record && !records.has(epoch)) records.set(epoch, await verifyEpochRecord(kind, log, keysOf, epoch, record));
      });
      found.catch(() => loaded.delete(epoch));
      loaded.set(epoch, found);
    }
    return found;
  };
  const keys = new Map<number, Promise<Key>>([[log.epoch, Promise.resolve(key)]]);
  const keyFor = (epoch: number): Promise<Key> => {
    let found = keys.get(epoch);
    if (!found) {
      if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > log.epoch) return Promise.reject(new DistributionError("copy_invalid", { of: kind.of }));
      // Epoch e's key is carried by e+1's: walk back from the current one, each step checked against e's record.
      found = Promise.all([keyFor(epoch + 1), ensure(epoch), ensure(epoch + 1)]).then(([next]) => {
        const link = links.get(epoch + 1);
        const record = records.get(epoch);
        if (!link || !record) throw new DistributionError("copy_invalid", { of: kind.of });
        return kind.openLink(next, link, record).catch((error: unknown) => refuse("copy_invalid", error, kind.of));
      });
      // A refusal stays; a load that failed (the network) is tried again next time.
      found.catch((error: unknown) => {
        if (!isDistributionError(error)) keys.delete(epoch);
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
    log,
    entries: input.entries,
    records,
    epoch: log.epoch,
    key,
    keyFor,
    membersOf: (epoch) => members.get(epoch) ?? new Set(),
    writable: records.get(log.epoch) !== undefined && !log.needsRekey,
    keysOf,
    chain: { me, vouchers: new MessageVouchers(), own: null },
  };
}
