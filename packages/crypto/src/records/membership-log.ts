import * as z from "zod";
import { base64urlEncode, utf8Encode } from "../bytes";
import { canonicalJson } from "../canonical-json";
import { CryptoError } from "../errors";
import { sha256 } from "../primitives";
import { signRecordV2, verifyRecordV2 } from "../signatures";
import { type IdentityKeys, type KeysOf, resolveSigner } from "./identity-keys";
import { type KeyRef, countField, digestField, idField, keyIdField, keyRefField, logHeadField, parseRecord, signatureField, timeField } from "./v2-fields";

/**
 * The membership log of a conversation or a group: signed entries, each naming the hash of
 * the one before, replayed by every client from the first entry (docs/protocol.md, "The membership
 * log"). Who may change what follows from earlier entries only, so the server can withhold
 * entries but not invent a change; a client remembers the head it saw, so a server that shows
 * different histories to different people, or an older one, is caught (log_fork).
 */

export const MEMBERSHIP_ACTIONS = ["create", "add", "remove", "leave", "promote", "demote", "rekey"] as const;
export type MembershipAction = (typeof MEMBERSHIP_ACTIONS)[number];

export interface MembershipEntry {
  type: "membership";
  v: 2;
  /** `conversation:<id>` or `group:<id>`. */
  container: string;
  seq: number;
  /** entryHash of the entry before; "" for seq 0. */
  prev: string;
  action: MembershipAction;
  /** Whom it concerns: the author for create, the member added, removed, leaving, promoted or demoted; null for rekey. */
  subject: KeyRef | null;
  /** The epoch after this entry: 0 from create, one more at each rekey, unchanged otherwise. */
  epoch: number;
  author: number;
  authorKeyId: string;
  /** ms, as the author's clock said (not checked). */
  at: number;
}

export interface SignedMembershipEntry {
  record: MembershipEntry;
  signature: string;
}

export interface LogHead {
  seq: number;
  hash: string;
}

/** The container after some entry of its log. */
export interface LogState {
  head: LogHead;
  epoch: number;
  /** Sorted by user id; keyId is the key the entry that added them named. */
  members: KeyRef[];
  /** User ids, sorted; every admin is a member. */
  admins: number[];
  /** A member was removed or left since the last rekey: no new content under this epoch until a rekey. */
  needsRekey: boolean;
}

export interface VerifiedLog extends LogState {
  container: string;
  /** The state after each entry: history[seq]; the last is this state. */
  history: LogState[];
}

const CONTAINER = /^(?:conversation|group):[1-9][0-9]{0,15}$/;

const containerField = z.string().refine(isContainer, "not a container");

const entrySchema = z
  .strictObject({
    type: z.literal("membership"),
    v: z.literal(2),
    container: containerField,
    seq: countField,
    prev: z.union([z.literal(""), digestField]),
    action: z.enum(MEMBERSHIP_ACTIONS),
    subject: keyRefField.nullable(),
    epoch: countField,
    author: idField,
    authorKeyId: keyIdField,
    at: timeField,
  })
  .refine((entry) => (entry.action === "rekey") === (entry.subject === null), "rekey has no subject, every other action has one");

const signedEntrySchema = z.strictObject({ record: entrySchema, signature: signatureField });

function isContainer(text: string): boolean {
  return CONTAINER.test(text) && Number.isSafeInteger(Number(text.slice(text.indexOf(":") + 1)));
}

/** `conversation:<id>` or `group:<id>`: the log's container, as every entry names it. */
export function membershipContainer(kind: "conversation" | "group", id: number): string {
  const container = `${kind}:${id}`;
  if (!Number.isSafeInteger(id) || id < 1 || !isContainer(container)) throw new CryptoError("invalid_input", "a container is conversation:<id> or group:<id>");
  return container;
}

/** base64url(SHA-256(canonical JSON of the signed entry { record, signature })): what the next entry's `prev` and a head name. */
export async function entryHash(signed: SignedMembershipEntry): Promise<string> {
  const parsed = parseRecord(signedEntrySchema, signed, "membership entry");
  return base64urlEncode(await sha256(utf8Encode(canonicalJson(parsed))));
}

/** The first entry of a container's log: its author creates it, and becomes its first member and admin. */
export async function createLog(container: string, author: IdentityKeys, at: number): Promise<SignedMembershipEntry> {
  const subject = { userId: author?.userId, keyId: author?.keyId };
  return signEntry(null, { container, seq: 0, prev: "", action: "create", subject, epoch: 0, at }, author);
}

/**
 * The next entry of a verified log, checked against it as every reader will check it (the
 * author's rights: not_permitted; a change that does not fit: bad_chain). A rekey takes the
 * epoch one further.
 */
export async function appendToLog(
  log: VerifiedLog,
  change: { action: Exclude<MembershipAction, "create">; subject: KeyRef | null; at: number },
  author: IdentityKeys,
): Promise<SignedMembershipEntry> {
  const epoch = change?.action === "rekey" ? log.epoch + 1 : log.epoch;
  return signEntry(log, { container: log.container, seq: log.head.seq + 1, prev: log.head.hash, action: change?.action, subject: change?.subject, epoch, at: change?.at }, author);
}

async function signEntry(state: LogState | null, fields: Omit<MembershipEntry, "type" | "v" | "author" | "authorKeyId">, author: IdentityKeys): Promise<SignedMembershipEntry> {
  const record = parseRecord(entrySchema, { type: "membership", v: 2, ...fields, author: author?.userId, authorKeyId: author?.keyId }, "membership entry", "invalid_input");
  step(state, record, "");
  return { record, signature: await signRecordV2(author.keys.sign.privateKey, record) };
}

/**
 * Replays a container's whole log and answers its state. Rejects: malformed_record (shape);
 * untrusted_key (an author key the lookup does not know); bad_signature; bad_chain (another
 * container, a seq out of order, a `prev` that is not the previous entry's hash, no create first,
 * an epoch that does not follow, a change that does not fit the members); not_permitted (an
 * author without the right at that point); log_fork (`remembered`, a head this client stored
 * earlier, is not in this log, or the log is shorter than it).
 */
export async function verifyLog(container: string, entries: readonly SignedMembershipEntry[], keysOf: KeysOf, remembered?: LogHead): Promise<VerifiedLog> {
  if (typeof container !== "string" || !isContainer(container)) throw new CryptoError("invalid_input", "a container is conversation:<id> or group:<id>");
  const stored = remembered === undefined ? undefined : parseRecord(logHeadField, remembered, "remembered head", "invalid_input");
  if (!Array.isArray(entries)) throw new CryptoError("malformed_record", "a log is a list of entries");
  if (entries.length === 0) throw new CryptoError("bad_chain", "the log is empty: a log starts with create");
  const history: LogState[] = [];
  let state: LogState | null = null;
  for (const [index, input] of entries.entries()) {
    state = await verifyEntry(container, state, index, input, keysOf);
    history.push(state);
  }
  const current = state!;
  if (stored) {
    if (stored.seq > current.head.seq) throw new CryptoError("log_fork", `the log ends at ${current.head.seq}, before the remembered head ${stored.seq}: a rollback`);
    if (history[stored.seq]!.head.hash !== stored.hash) throw new CryptoError("log_fork", `entry ${stored.seq} is not the one this client saw: the log forked`);
  }
  return { container, ...current, history };
}

/**
 * Where `head` (one another client saw, as a signed message names it) is in this verified log:
 * the state after that entry, or undefined when the head lies beyond the log's end (the caller
 * fetches the log again and looks once more). Rejects: malformed_record (not a head); log_fork
 * (this log has another entry at that seq: the two clients were shown different histories).
 */
export function findHead(log: VerifiedLog, head: LogHead): LogState | undefined {
  const { seq, hash } = parseRecord(logHeadField, head, "log head");
  if (seq > log.head.seq) return undefined;
  const state = log.history[seq]!;
  if (state.head.hash !== hash) throw new CryptoError("log_fork", `entry ${seq} is not the one another member saw: the log forked`);
  return state;
}

/**
 * A verified log followed by `more` entries, each checked as verifyLog checks it (signature,
 * chain, rights): what a client that holds a verified log and appends to it needs, without
 * replaying the whole log again for every entry.
 */
export async function extendLog(log: VerifiedLog, more: readonly SignedMembershipEntry[], keysOf: KeysOf): Promise<VerifiedLog> {
  const { container, history } = log;
  if (!Array.isArray(more)) throw new CryptoError("malformed_record", "a log is a list of entries");
  let state: LogState = { head: log.head, epoch: log.epoch, members: log.members, admins: log.admins, needsRekey: log.needsRekey };
  const next = [...history];
  for (const input of more) {
    state = await verifyEntry(container, state, state.head.seq + 1, input, keysOf);
    next.push(state);
  }
  return { container, ...state, history: next };
}

/** One entry of `container`'s log at `index`, checked (shape, signature, chain) and applied to the state before it. */
async function verifyEntry(container: string, state: LogState | null, index: number, input: unknown, keysOf: KeysOf): Promise<LogState> {
  const signed = parseRecord(signedEntrySchema, input, "membership entry");
  const { record } = signed;
  const { verify } = await resolveSigner(keysOf, record.author, record.authorKeyId);
  await verifyRecordV2(verify, record, signed.signature);
  if (record.container !== container) throw new CryptoError("bad_chain", `entry ${index} belongs to ${record.container}`);
  if (record.seq !== index) throw new CryptoError("bad_chain", `entry ${index} has seq ${record.seq}`);
  if (record.prev !== (state?.head.hash ?? "")) throw new CryptoError("bad_chain", `entry ${index} does not follow the entry before it`);
  return step(state, record, await entryHash(signed));
}

/** One entry applied to the state before it (null before create). */
function step(state: LogState | null, entry: MembershipEntry, hash: string): LogState {
  const head = { seq: entry.seq, hash };
  const subject = entry.subject;
  if (entry.action === "create") {
    if (state) throw new CryptoError("bad_chain", "create is only the first entry");
    if (entry.epoch !== 0) throw new CryptoError("bad_chain", "a log starts at epoch 0");
    if (subject!.userId !== entry.author || subject!.keyId !== entry.authorKeyId) throw new CryptoError("bad_chain", "the creator is the subject of create");
    return { head, epoch: 0, members: [subject!], admins: [entry.author], needsRekey: false };
  }
  if (!state) throw new CryptoError("bad_chain", "a log starts with create");
  const expectedEpoch = entry.action === "rekey" ? state.epoch + 1 : state.epoch;
  if (entry.epoch !== expectedEpoch) throw new CryptoError("bad_chain", `entry ${entry.seq} has epoch ${entry.epoch}, not ${expectedEpoch}`);
  const isMember = (userId: number) => state.members.some((member) => member.userId === userId);
  const isAdmin = (userId: number) => state.admins.includes(userId);
  if (!isMember(entry.author)) throw new CryptoError("not_permitted", `entry ${entry.seq}: user ${entry.author} is not a member`);
  const needsAdmin = entry.action !== "leave";
  if (needsAdmin && !isAdmin(entry.author)) throw new CryptoError("not_permitted", `entry ${entry.seq}: ${entry.action} needs an admin`);
  const next = { ...state, head, epoch: entry.epoch };
  const named = subject && state.members.find((member) => member.userId === subject.userId);
  const without = (userId: number) => ({ members: state.members.filter((m) => m.userId !== userId), admins: state.admins.filter((a) => a !== userId) });
  switch (entry.action) {
    case "add":
      if (isMember(subject!.userId)) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is already a member`);
      return { ...next, members: [...state.members, subject!].sort((a, b) => a.userId - b.userId) };
    case "remove":
      if (subject!.userId === entry.author) throw new CryptoError("bad_chain", `entry ${entry.seq}: one leaves, one does not remove oneself`);
      if (named?.keyId !== subject!.keyId) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is not a member with that key`);
      return { ...next, ...without(subject!.userId), needsRekey: true };
    case "leave":
      if (subject!.userId !== entry.author) throw new CryptoError("not_permitted", `entry ${entry.seq}: only members themselves leave`);
      if (named?.keyId !== subject!.keyId) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is not a member with that key`);
      // A group keeps an admin, who renews its key (a remove is always by another admin, who stays).
      if (entry.container.startsWith("group:") && state.admins.length === 1 && isAdmin(entry.author)) {
        throw new CryptoError("bad_chain", `entry ${entry.seq}: the last admin of a group does not leave it`);
      }
      return { ...next, ...without(subject!.userId), needsRekey: true };
    case "promote":
      if (!named) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is not a member`);
      if (isAdmin(subject!.userId)) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is already an admin`);
      return { ...next, admins: [...state.admins, subject!.userId].sort((a, b) => a - b) };
    case "demote":
      // A group's admins stay admins (docs/protocol.md, "Group keys with epochs": promote is for good).
      if (entry.container.startsWith("group:")) throw new CryptoError("bad_chain", `entry ${entry.seq}: a group's admins are not demoted`);
      if (subject!.userId === entry.author) throw new CryptoError("bad_chain", `entry ${entry.seq}: one does not demote oneself`);
      if (named?.keyId !== subject!.keyId) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is not a member with that key`);
      if (!isAdmin(subject!.userId)) throw new CryptoError("bad_chain", `entry ${entry.seq}: user ${subject!.userId} is not an admin`);
      return { ...next, admins: state.admins.filter((a) => a !== subject!.userId) };
    case "rekey":
      return { ...next, needsRekey: false };
  }
}
