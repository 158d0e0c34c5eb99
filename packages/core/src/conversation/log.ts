import { type MembershipEntry, type SignedMembershipEntry, entryHash, isCryptoError, membershipContainer, parseSignedConversation, parseSignedSealedKey } from "@sealwork/crypto";
import { envelopeText } from "../envelope";
import { type ErrorCode, fail } from "../errors";
import type { Member } from "./access";
import "./errors";

/**
 * What the server checks of a conversation's membership log (protocol v2, docs/protocol.md
 * §14.8) before it stores anything: the entries' shape, that they continue the stored head (seq
 * and hash), that the caller signed them, and that each change fits the people and rights the
 * server enforces, so the participants it lets in are always the log's members. It does not
 * verify signatures: it holds no verified keys, and the clients verify everything themselves.
 */

/** The log as far as the server follows it: the head, the epoch, and the members with their admin flags. */
export interface LogState {
  /** The last entry's seq; -1 before `create`. */
  seq: number;
  hash: string;
  epoch: number;
  needsRekey: boolean;
  members: Member[];
}

/** What a batch of entries did. */
export interface Replayed {
  state: LogState;
  entries: SignedMembershipEntry[];
  created: boolean;
  added: number[];
  removed: number[];
  promoted: number[];
  demoted: number[];
  rekeyed: boolean;
}

export const EMPTY_LOG: LogState = { seq: -1, hash: "", epoch: 0, needsRekey: false, members: [] };

/** A conversation's state as its item holds it (the log's head, the epoch, the members). */
export function storedLog(conversation: { logSeq?: number; logHash?: string; epoch?: number; needsRekey?: boolean }, members: Member[]): LogState {
  if (conversation.logSeq === undefined) return EMPTY_LOG;
  return { seq: conversation.logSeq, hash: conversation.logHash ?? "", epoch: conversation.epoch ?? 0, needsRekey: conversation.needsRekey ?? false, members };
}

/**
 * Applies `input` to `start` as the conversation's author `authorId` rules allow, each entry signed
 * by `actor`. Refuses with the codes of the version 1 routes where the meaning is the same
 * (participant_exists, remove_self, …), log_conflict for an entry that does not follow the stored
 * head because another was stored first, and log_invalid for anything else.
 */
export async function replay(conversationId: number, authorId: number, start: LogState, input: readonly unknown[], actor: number): Promise<Replayed> {
  const container = membershipContainer("conversation", conversationId);
  let state: LogState = { ...start, members: [...start.members] };
  const out: Replayed = { state, entries: [], created: false, added: [], removed: [], promoted: [], demoted: [], rekeyed: false };
  for (const [index, value] of input.entries()) {
    let hash: string;
    try {
      hash = await entryHash(value as SignedMembershipEntry);
    } catch (error) {
      if (!isCryptoError(error)) throw error;
      return fail("log_invalid", { message: `Entry ${index} is not a membership entry.` });
    }
    const signed = value as SignedMembershipEntry;
    const entry = signed.record;
    if (entry.seq <= state.seq) fail("log_conflict");
    if (entry.container !== container || entry.seq !== state.seq + 1 || entry.prev !== state.hash) {
      fail("log_invalid", { message: `Entry ${index} does not continue the log at seq ${state.seq + 1}.` });
    }
    if (entry.author !== actor) fail("log_invalid", { message: "Every entry is signed by whoever sends it." });
    const expectedEpoch = entry.action === "rekey" ? state.epoch + 1 : state.epoch;
    if (entry.epoch !== expectedEpoch) fail("log_invalid", { message: `Entry ${index} names epoch ${entry.epoch}, not ${expectedEpoch}.` });
    state = { ...apply(state, entry, authorId, out), seq: entry.seq, hash, epoch: entry.epoch };
    out.entries.push(signed);
  }
  out.state = state;
  return out;
}

function apply(state: LogState, entry: MembershipEntry, authorId: number, out: Replayed): LogState {
  const me = state.members.find((m) => m.u === entry.author);
  const subject = entry.subject?.userId;
  const named = state.members.find((m) => m.u === subject);
  const deny = (code: ErrorCode) => fail(code);
  switch (entry.action) {
    case "create":
      if (state.seq !== -1) return fail("log_invalid", { message: "A log starts once." });
      if (subject !== entry.author) return fail("log_invalid", { message: "Whoever creates the log is its first member." });
      out.created = true;
      return { ...state, members: [{ u: entry.author, a: true }] };
    case "add":
      if (!me?.a) return deny("add_not_author");
      if (named) return deny("participant_exists");
      if (state.needsRekey) return fail("log_invalid", { message: "Someone left: start the next epoch before adding people." });
      out.added.push(subject!);
      return { ...state, members: [...state.members, { u: subject!, a: false }] };
    case "remove":
      if (!me?.a) return deny("remove_forbidden");
      if (subject === entry.author) return deny("remove_self");
      if (subject === authorId) return deny("remove_author");
      if (!named) return deny("participant_missing");
      out.removed.push(subject!);
      return { ...state, members: state.members.filter((m) => m.u !== subject), needsRekey: true };
    case "leave":
      if (!me || subject !== entry.author) return fail("log_invalid", { message: "Only members leave, and only themselves." });
      // The author stays an admin for good, so someone can always start the next epoch.
      if (subject === authorId) return deny("remove_author");
      out.removed.push(subject);
      return { ...state, members: state.members.filter((m) => m.u !== subject), needsRekey: true };
    case "promote":
      if (!me?.a) return deny("administrate_forbidden");
      if (!named) return deny("participant_missing");
      if (named.a) return fail("log_invalid", { message: "This person is an admin already." });
      out.promoted.push(subject!);
      return { ...state, members: state.members.map((m) => (m.u === subject ? { ...m, a: true } : m)) };
    case "demote":
      if (!me?.a) return deny("administrate_forbidden");
      if (subject === entry.author) return deny("unadmin_self");
      if (subject === authorId) return deny("unadmin_author");
      if (!named) return deny("participant_missing");
      if (!named.a) return fail("log_invalid", { message: "This person is no admin." });
      out.demoted.push(subject!);
      return { ...state, members: state.members.map((m) => (m.u === subject ? { ...m, a: false } : m)) };
    case "rekey":
      if (!me?.a) return deny("administrate_forbidden");
      out.rekeyed = true;
      return { ...state, needsRekey: false };
  }
}

/** The user ids of the log's members, sorted. */
export const memberIds = (state: LogState) => state.members.map((m) => m.u).sort((a, b) => a - b);

/**
 * A conversation record for the log state `state`, signed (the server cannot check that) by the
 * actor: this conversation, the state's epoch, head and members. Answers its JSON.
 */
export function checkRecord(conversationId: number, state: LogState, input: unknown, actor: number): string {
  let record;
  try {
    record = parseSignedConversation(input).record;
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    return fail("record_invalid", { message: "Not a conversation record." });
  }
  const mismatch =
    record.conversationId !== conversationId
      ? "It is another conversation's record."
      : record.epoch !== state.epoch
        ? `It is for epoch ${record.epoch}, not ${state.epoch}.`
        : record.logHead.seq !== state.seq || record.logHead.hash !== state.hash
          ? `It follows another head of the log than seq ${state.seq}.`
          : record.author !== actor
            ? "Whoever sends a record signs it."
            : record.participants.map((p) => p.userId).join() !== memberIds(state).join()
              ? "Its participants are not the log's members."
              : null;
  if (mismatch) fail("record_invalid", { message: mismatch });
  return JSON.stringify(input);
}

/** One participant's checked copy: its JSON and the sealed envelope's text (what lists open). */
export interface CheckedCopy {
  copy: string;
  sealed: string;
}

/** Exactly one copy for each of `expected`, sealed and signed by the actor. */
export function checkCopies(input: readonly { user_id: number; copy: unknown }[] | undefined, expected: readonly number[], actor: number): Map<number, CheckedCopy> {
  const copies = new Map<number, CheckedCopy>();
  for (const { user_id: userId, copy } of input ?? []) {
    let parsed;
    try {
      parsed = parseSignedSealedKey(copy);
    } catch (error) {
      if (!isCryptoError(error)) throw error;
      return fail("copies_invalid", { message: `The copy for user ${userId} is not a signed key copy.` });
    }
    if (parsed.sealer !== actor || copies.has(userId)) fail("copies_invalid");
    copies.set(userId, { copy: JSON.stringify(copy), sealed: envelopeText(parsed.sealed, "sealed", "copies_invalid") });
  }
  if (copies.size !== expected.length || !expected.every((uid) => copies.has(uid))) {
    fail("copies_invalid", { message: `Copies are for ${expected.length ? `users ${expected.join(", ")}` : "nobody"} here.` });
  }
  return copies;
}
