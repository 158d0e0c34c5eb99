import type { Body, ParticipantView } from "@sealwork/contracts";
import {
  type ConversationRecord,
  type IdentityKeys,
  type Key,
  type KeyRef,
  type KeysOf,
  type VerifiedKey,
  type VerifiedLog,
  appendToLog,
  createConversationRecord,
  createLog,
  extendLog,
  generateSymmetricKey,
  membershipContainer,
  sealEpochLink,
  sealSignedConversationKey,
  verifyLog,
} from "@sealwork/crypto";
import { isApiError } from "../../lib/api";
import { trustedKey } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { bindConversationKey, encryptTitle, extractableConversationKey } from "./conversation-crypto";
import { forgetRing, openRing, postLog } from "./conversation-log";
import type { KeyRing, Ring } from "./distribution";
import { keyOf, keysOfPerson, myIdentity, myKey, signerLookup } from "./signers";

/**
 * Every change of a protocol v2 conversation's people, signed by this client (docs/protocol.md
 * §14.7–14.8): the log entries, the conversation record for the new head, a signed copy of the
 * key for whoever needs one, and, for a new epoch, a new key that carries the previous one. Keys
 * sealed for come from lib/trust.ts (verified identities and pins); a refusal there stops the
 * change before anything is sent.
 */

type Json = Record<string, unknown>;
/** A signed record as the API's opaque JSON object. */
export const json = (value: object) => value as unknown as Json;
export const ref = (key: { userId: number; keyId: string }): KeyRef => ({ userId: key.userId, keyId: key.keyId });

/**
 * Entries appended to a verified log (a ring's, or a new log's first entry: `from`) one by one,
 * each checked as readers will check it (only the new entries: the log before them was verified).
 */
export async function extend(from: Pick<KeyRing<unknown>, "log" | "entries">, changes: Parameters<typeof appendToLog>[1][], me: IdentityKeys, keysOf: KeysOf) {
  const all = [...from.entries];
  let log = from.log;
  for (const change of changes) {
    const entry = await appendToLog(log, change, me);
    all.push(entry);
    log = await extendLog(log, [entry], keysOf);
  }
  return { entries: all.slice(from.entries.length), all, log };
}

/** A new log of `container` created by `me`, verified: what `extend` starts a conversation's or a group's log from. */
export async function newLog(container: string, me: IdentityKeys, keysOf: KeysOf): Promise<Pick<KeyRing<unknown>, "log" | "entries">> {
  const first = await createLog(container, me, Date.now());
  return { log: await verifyLog(container, [first], keysOf), entries: [first] };
}

/** A lookup that knows the keys about to be sealed for as well (people not yet in any record). */
export function withKeys(keysOf: KeysOf, keys: VerifiedKey[]): KeysOf {
  const known = new Map(keys.map((k) => [`${k.userId}:${k.keyId}`, k]));
  return (userId, keyId) => {
    const key = known.get(`${userId}:${keyId}`);
    return key ? Promise.resolve(key) : keysOf(userId, keyId);
  };
}

/** The record for `log` and a signed copy of `key` for each of `recipients`. */
async function recordAndCopies(key: Key, participants: KeyRef[], log: VerifiedLog, recipients: VerifiedKey[], me: IdentityKeys) {
  const signed = await createConversationRecord(key, participants, log, me);
  const copies = await Promise.all(recipients.map(async (to) => ({ user_id: to.userId, copy: json(await sealSignedConversationKey(key, signed.record, to, me)) })));
  return { record: signed, copies };
}

/**
 * The body of POST /api/conversations for a new conversation with its log: `create`, an `add`
 * for each recipient (their verified key), the record, a copy for everyone, the title.
 */
export async function signedStart(holder: UnlockedKeys, id: number, key: Key, recipients: number[], title: string) {
  const me = await myIdentity(holder);
  const [self, contacts] = await Promise.all([myKey(holder), Promise.all(recipients.map((uid) => trustedKey(uid)))]);
  const keys = [self, ...contacts.map(keyOf)];
  const keysOf = withKeys(signerLookup(holder), keys);
  const container = membershipContainer("conversation", id);
  const first = await createLog(container, me, Date.now());
  const { all, log } = await extend({ log: await verifyLog(container, [first], keysOf), entries: [first] }, keys.slice(1).map((k) => ({ action: "add" as const, subject: ref(k), at: Date.now() })), me, keysOf);
  const { record, copies } = await recordAndCopies(key, keys.map(ref), log, keys, me);
  const body: Body<"POST /api/conversations"> = {
    id,
    recipient: recipients.length === 1 ? recipients[0]! : recipients,
    log: all.map(json),
    record: json(record),
    copies,
    ...(title ? { title: await encryptTitle(key, title, id) } : {}),
  };
  return body;
}

/**
 * Runs a change on the newest verified ring (`open` after `forget`); when another change won the
 * race for its seq (409 log_conflict), once more on the log after it.
 */
export async function onNewest<G, T>(forget: () => void, open: () => Promise<G>, change: (ring: G) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    forget();
    const ring = await open();
    try {
      const result = await change(ring);
      forget();
      return result;
    } catch (error) {
      if (!isApiError(error, 409) || error.code !== "log_conflict" || attempt >= 1) throw error;
    }
  }
}

function onNewestLog<T>(id: number, holder: UnlockedKeys, change: (ring: Ring) => Promise<T>): Promise<T> {
  return onNewest(() => forgetRing(id), () => openRing(id, holder), change);
}

/** The current epoch's record (every verified ring has one). */
const currentRecord = (ring: Ring): ConversationRecord => ring.records.get(ring.epoch)!;

/** Adds a person: an `add` entry, the record naming them (the others keep the keys their copies are for), their copy of the current key. */
export function addSigned(id: number, holder: UnlockedKeys, uid: number) {
  return onNewestLog(id, holder, async (ring) => {
    const me = await myIdentity(holder);
    const newcomer = keyOf(await trustedKey(uid));
    const keysOf = withKeys(ring.keysOf, [newcomer]);
    const { entries, log } = await extend(ring, [{ action: "add", subject: ref(newcomer), at: Date.now() }], me, keysOf);
    const participants = [...currentRecord(ring).participants.filter((p) => log.members.some((m) => m.userId === p.userId)), ref(newcomer)];
    const { record, copies } = await recordAndCopies(ring.key, participants, log, [newcomer], me);
    return postLog(id, { entries: entries.map(json), record: json(record), copies });
  });
}

/**
 * Starts the next epoch after `changes` (a removal, or nothing when someone left): a new key
 * sealed for everyone who stays (their verified keys), carrying the previous one, the record for
 * it, and the title sealed anew (when it is known).
 */
function rekeyed(id: number, holder: UnlockedKeys, changes: (ring: Ring) => Parameters<typeof appendToLog>[1][], title: string | null, renewedTo?: UnlockedKeys) {
  return onNewestLog(id, holder, async (ring) => {
    const me = await myIdentity(holder);
    const { entries, log } = await extend(ring, [...changes(ring), { action: "rekey", subject: null, at: Date.now() }], me, ring.keysOf);
    const stay = await Promise.all(log.members.map((m) => (m.userId === holder.uid ? myKey(renewedTo ?? holder) : trustedKey(m.userId).then(keyOf))));
    const key = bindConversationKey(await generateSymmetricKey(), id, log.epoch);
    const { record, copies } = await recordAndCopies(key, stay.map(ref), log, stay, me);
    const link = await sealEpochLink(key, ring.key, { conversationId: id, epoch: log.epoch });
    const body: Body<"POST /api/conversations/{id}/log"> = { entries: entries.map(json), record: json(record), copies, link };
    if (title) body.title = await encryptTitle(key, title, id);
    return postLog(id, body);
  });
}

/**
 * Whether someone the current epoch's record seals for holds another key now (they renewed it, or
 * an administrator reset it, docs/protocol.md §14.3): their copy is for a key they no longer have,
 * so an admin's client renews the key for everyone, and the epoch chain gives them the history
 * again. A person whose key is refused or cannot be looked up does not count (nothing would be
 * sealed for them).
 */
export async function keysMoved(ring: Ring, holder: UnlockedKeys): Promise<boolean> {
  const others = currentRecord(ring).participants.filter((p) => p.userId !== holder.uid);
  const now = await Promise.all(others.map((p) => keysOfPerson(holder, p.userId).then((keys) => keys.at(-1)?.keyId, () => undefined)));
  return others.some((p, i) => now[i] !== undefined && now[i] !== p.keyId);
}

/** Removes a person and starts the next epoch: they hold no key of it. */
export function removeSigned(id: number, holder: UnlockedKeys, uid: number, title: string | null) {
  return rekeyed(id, holder, (ring) => [{ action: "remove", subject: ring.log.members.find((m) => m.userId === uid) ?? { userId: uid, keyId: "" }, at: Date.now() }], title);
}

/**
 * The next epoch after someone left (an admin's client does it when it finds the log waiting for
 * one), or for someone whose key moved. `renewedTo`: the key the holder is renewing theirs to (the
 * holder's own copy is sealed for it; the held key opens the current epoch and signs).
 */
export function rekeySigned(id: number, holder: UnlockedKeys, title: string | null, renewedTo?: UnlockedKeys) {
  return rekeyed(id, holder, () => [], title, renewedTo);
}

/** Leaves: a `leave` entry, nothing else (the leaver must not make the next key; an admin does). */
export function leaveSigned(id: number, holder: UnlockedKeys) {
  return onNewestLog(id, holder, async (ring) => {
    const me = await myIdentity(holder);
    const mine = ring.log.members.find((m) => m.userId === holder.uid);
    const { entries } = await extend(ring, [{ action: "leave", subject: mine ?? ref(me), at: Date.now() }], me, ring.keysOf);
    return postLog(id, { entries: entries.map(json) });
  });
}

/** Makes a member an admin of the log, or no longer one (a `promote` or `demote` entry; the record stays the one of its epoch). */
export function adminSigned(id: number, holder: UnlockedKeys, uid: number, action: "promote" | "demote") {
  return onNewestLog(id, holder, async (ring) => {
    const me = await myIdentity(holder);
    const subject = ring.log.members.find((m) => m.userId === uid) ?? { userId: uid, keyId: "" };
    const { entries } = await extend(ring, [{ action, subject, at: Date.now() }], me, ring.keysOf);
    return postLog(id, { entries: entries.map(json) });
  });
}

/**
 * The migration of a conversation from before membership logs (docs/protocol.md §14.14): its
 * first log names its people as they are (`create` by this client, an `add` for each other
 * participant, a `promote` for each other admin), with the record and a signed copy of the key
 * it has for everyone, so that from then on it is read and written as a v2 conversation.
 */
export async function migrate(id: number, holder: UnlockedKeys, sealed: string, participants: ParticipantView[]) {
  const me = await myIdentity(holder);
  const key = await extractableConversationKey(id, sealed, holder);
  const others = participants.filter((p) => p.user_id !== holder.uid).sort((a, b) => a.user_id - b.user_id);
  const [self, contacts] = await Promise.all([myKey(holder), Promise.all(others.map((p) => trustedKey(p.user_id).then(keyOf)))]);
  const keys = [self, ...contacts];
  const keysOf = withKeys(signerLookup(holder), keys);
  const container = membershipContainer("conversation", id);
  const changes = [
    ...contacts.map((k) => ({ action: "add" as const, subject: ref(k), at: Date.now() })),
    ...others.flatMap((p, i) => (p.admin ? [{ action: "promote" as const, subject: ref(contacts[i]!), at: Date.now() }] : [])),
  ];
  const { all, log } = await extend(await newLog(container, me, keysOf), changes, me, keysOf);
  const { record, copies } = await recordAndCopies(key, keys.map(ref), log, keys, me);
  return postLog(id, { entries: all.map(json), record: json(record), copies });
}
