import type { Session } from "@sealwork/contracts";
import {
  type ConversationRecord,
  type IdentityKeys,
  type Key,
  type KeysOf,
  type SignedConversation,
  type SignedMembershipEntry,
  type SignedSealedKey,
  type VerifiedKey,
  type VerifiedLog,
  accountPublicKeys,
  appendToLog,
  keyId as keyIdOf,
  createConversationRecord,
  createLog,
  generateAccountKeys,
  generateSymmetricKey,
  identityKeys,
  membershipContainer,
  sealConversationTitle,
  sealEpochLink,
  sealSignedConversationKey,
  sealSignedMessage,
  verifyConversationRecord,
  verifyLog,
} from "@sealwork/crypto";
import { http } from "./api";
import { reserveConversation } from "./conversations";
import { newKeyBody } from "./keys";

/**
 * Protocol v2 conversations over the API, made with the crypto package's functions as the web
 * client makes them (docs/protocol.md §14.8): a membership log, the record each change signs,
 * signed key copies, signed messages. Each person here signs with account keys made for the test;
 * the server checks shapes and its own state, never signatures, so they need not be registered.
 */

type Who = Pick<Session, "id" | "api_token">;
type Json = Record<string, unknown>;

/** A person who signs: their session, identity keys and their key as a verifier knows it. */
export interface Signer {
  session: Who;
  me: IdentityKeys;
  key: VerifiedKey;
}

/** Someone who takes part but whose keys the test does not hold (their browser made them): only their key, to seal for. */
export type Recipient = Pick<Signer, "session" | "key">;

/** A signer with fresh keys; `register`: registered as their account key (a v1 key, pinned on first use by browsers). */
export async function signer(session: Who, options: { register?: boolean } = {}): Promise<Signer> {
  const keys = await generateAccountKeys();
  const me = await identityKeys(session.id, keys);
  const pub = await accountPublicKeys(keys);
  if (options.register) {
    const { body } = await newKeyBody(session.id, null, { keys });
    const reply = await http("POST", "/api/keypairs", { token: session.api_token, body });
    if (reply.status !== 200) throw new Error(`registering a key failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return { session, me, key: { userId: session.id, keyId: me.keyId, seq: 0, encryptPublic: pub.encryptPublic, signPublic: pub.signPublic, created: 0 } };
}

/** The key a user's browser made, as a client takes it from the server (their current identity key, or their v1 key). */
export async function recipientOf(session: Who, asker: Who): Promise<Recipient> {
  const reply = await http<{ chain: { records: { record: { encryptPublic: string; signPublic: string } }[] } | null; legacy: { encrypt_public: string; sign_public: string } | null }>(
    "GET",
    `/api/identities/${session.id}`,
    { token: asker.api_token },
  );
  const current = reply.body.chain?.records.at(-1)?.record;
  const pub = current ?? (reply.body.legacy ? { encryptPublic: reply.body.legacy.encrypt_public, signPublic: reply.body.legacy.sign_public } : null);
  if (!pub) throw new Error(`user ${session.id} has no key yet`);
  const keyId = await keyIdOf({ encryptPublic: pub.encryptPublic, signPublic: pub.signPublic });
  return { session, key: { userId: session.id, keyId, seq: 0, encryptPublic: pub.encryptPublic, signPublic: pub.signPublic, created: 0 } };
}

/** A key lookup over these people's keys (what a client builds from verified identities). */
export function lookupOf(people: readonly Recipient[]): KeysOf {
  const keys = new Map(people.map((p) => [`${p.key.userId}:${p.key.keyId}`, p.key]));
  return async (userId, keyId) => {
    const key = keys.get(`${userId}:${keyId}`);
    if (!key) throw new Error(`unknown key ${keyId} of ${userId}`);
    return key;
  };
}

const ref = (s: Recipient) => ({ userId: s.key.userId, keyId: s.key.keyId });

/** A conversation as the tests follow it: the log, each epoch's key and record. */
export interface SignedState {
  id: number;
  entries: SignedMembershipEntry[];
  log: VerifiedLog;
  keys: Key[];
  records: ConversationRecord[];
  people: Recipient[];
}

/** The body of POST /api/conversations for a new signed conversation (the author's work). */
export async function signedStartBody(author: Signer, recipients: Recipient[], id: number, options: { title?: string; key?: Key } = {}) {
  const everyone = [author, ...recipients];
  const keysOf = lookupOf(everyone);
  const container = membershipContainer("conversation", id);
  const entries = [await createLog(container, author.me, Date.now())];
  for (const person of recipients) entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: "add", subject: ref(person), at: Date.now() }, author.me));
  const log = await verifyLog(container, entries, keysOf);
  const key = options.key ?? (await generateSymmetricKey());
  const signed = await createConversationRecord(key, everyone.map(ref), log, author.me);
  const record = await verifyConversationRecord(signed, log, keysOf);
  const copies = await Promise.all(everyone.map(async (p) => ({ user_id: p.session.id, copy: await sealSignedConversationKey(key, record, p.key, author.me) })));
  const title = options.title ? await sealConversationTitle(key, options.title, { conversationId: id }) : undefined;
  const body = {
    id,
    recipient: recipients.length === 1 ? recipients[0]!.session.id : recipients.map((r) => r.session.id),
    ...(title ? { title } : {}),
    log: entries as unknown as Json[],
    record: signed as unknown as Json,
    copies: copies as unknown as { user_id: number; copy: Json }[],
  };
  const state: SignedState = { id, entries, log, keys: [key], records: [record], people: everyone };
  return { body, state, signed };
}

/** Starts a signed conversation over the API. */
export async function startSigned(author: Signer, recipients: Recipient[], options: { title?: string } = {}): Promise<SignedState> {
  const id = await reserveConversation(author.session);
  const { body, state } = await signedStartBody(author, recipients, id, options);
  const reply = await http("POST", "/api/conversations", { token: author.session.api_token, body });
  if (reply.status !== 200) throw new Error(`starting a signed conversation failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return state;
}

/** GET /api/conversations/{id}/log */
export interface LogReply {
  entries: SignedMembershipEntry[];
  epochs: { epoch: number; record: SignedConversation | null; link: string | null }[];
  copy: SignedSealedKey | null;
  epoch: number;
  needs_rekey: boolean;
}

export function fetchLog(who: Who, id: number) {
  return http<LogReply>("GET", `/api/conversations/${id}/log`, { token: who.api_token });
}

export function postLog(who: Who, id: number, body: Json) {
  return http<Json & { code?: string }>("POST", `/api/conversations/${id}/log`, { token: who.api_token, body });
}

/** The next entries of `state`'s log by `author` (checked as readers will). */
export async function nextEntries(state: SignedState, author: Signer, changes: { action: "add" | "remove" | "leave" | "promote" | "demote" | "rekey"; subject: Recipient | null }[]) {
  const keysOf = lookupOf(state.people);
  const container = membershipContainer("conversation", state.id);
  const entries = [...state.entries];
  for (const change of changes) {
    entries.push(await appendToLog(await verifyLog(container, entries, keysOf), { action: change.action, subject: change.subject ? ref(change.subject) : null, at: Date.now() }, author.me));
  }
  return { entries, added: entries.slice(state.entries.length), log: await verifyLog(container, entries, keysOf) };
}

/** The body of POST …/log that adds `newcomer` (with the record for the new head and their copy). */
export async function addBody(state: SignedState, author: Signer, newcomer: Recipient) {
  const people = [...state.people, newcomer];
  const next = await nextEntries({ ...state, people }, author, [{ action: "add", subject: newcomer }]);
  const key = state.keys.at(-1)!;
  const signed = await createConversationRecord(key, next.log.members, next.log, author.me);
  const record = await verifyConversationRecord(signed, next.log, lookupOf(people));
  const copy = await sealSignedConversationKey(key, record, newcomer.key, author.me);
  const body = { entries: next.added, record: signed, copies: [{ user_id: newcomer.session.id, copy }] } as unknown as Json;
  return { body, state: { ...state, entries: next.entries, log: next.log, people, records: [...state.records.slice(0, -1), record] } };
}

/**
 * The body of POST …/log that removes `removed` (or, with `leave`, the entries a leaver signs
 * alone) and starts the next epoch: a new key, its record, a copy for everyone left, the link to
 * the previous key, the title sealed anew.
 */
export async function rekeyBody(state: SignedState, author: Signer, changes: { action: "remove" | "leave" | "rekey"; subject: Recipient | null }[], options: { title?: string } = {}) {
  const next = await nextEntries(state, author, changes);
  const people = state.people.filter((p) => next.log.members.some((m) => m.userId === p.session.id));
  const previous = state.keys.at(-1)!;
  const key = await generateSymmetricKey();
  const signed = await createConversationRecord(key, next.log.members, next.log, author.me);
  const record = await verifyConversationRecord(signed, next.log, lookupOf(state.people));
  const copies = await Promise.all(people.map(async (p) => ({ user_id: p.session.id, copy: await sealSignedConversationKey(key, record, p.key, author.me) })));
  const link = await sealEpochLink(key, previous, { conversationId: state.id, epoch: next.log.epoch });
  const title = options.title ? await sealConversationTitle(key, options.title, { conversationId: state.id, epoch: next.log.epoch }) : undefined;
  const body = { entries: next.added, record: signed, copies, link, ...(title ? { title } : {}) } as unknown as Json;
  return { body, state: { ...state, entries: next.entries, log: next.log, people: state.people, keys: [...state.keys, key], records: [...state.records, record] } };
}

/** A member's signed message for the current epoch, as POST …/append takes it. */
export async function signedMessageBody(state: SignedState, sender: Signer, localid: string, text: string, epoch = state.log.epoch, withHead = false) {
  const logHead = withHead ? state.log.head : undefined;
  const message = await sealSignedMessage(state.keys[epoch]!, { v: 2, conversationId: state.id, epoch, senderId: sender.session.id, localid }, { text }, sender.me, logHead);
  return { localid, payload: message.envelope, epoch, signature: message.signature, sender_key_id: message.senderKeyId, ...(logHead ? { log_head: logHead } : {}) };
}

/** The body of POST …/log with which `admin` makes `subject` an admin of the log, or no longer one. */
export async function adminBody(state: SignedState, admin: Signer, subject: Recipient, action: "promote" | "demote") {
  const next = await nextEntries(state, admin, [{ action, subject }]);
  return { body: { entries: next.added } as unknown as Json, state: { ...state, entries: next.entries, log: next.log } };
}

/** The body of POST …/log with which `leaver` leaves: their entry alone (an admin then starts the next epoch). */
export async function leaveBody(state: SignedState, leaver: Signer) {
  const next = await nextEntries(state, leaver, [{ action: "leave", subject: leaver }]);
  return { body: { entries: next.added } as unknown as Json, state: { ...state, entries: next.entries, log: next.log } };
}
