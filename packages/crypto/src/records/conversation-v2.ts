import type { Key } from "../primitives";
import { type SealRandomness, conversationKeyContext, epochChainAad } from "./conversation-key";
import {
  type DistributionKind,
  type KeyRecordFields,
  type SealedCopyFields,
  type SignedSealedKey,
  commitKeyOf,
  createKeyRecord,
  openKeyCopy,
  parseSignedKeyRecord,
  sealKeyCopy,
  verifyKeyRecord,
} from "./distribution";
import type { IdentityKeys, KeysOf, VerifiedKey } from "./identity-keys";
import type { VerifiedLog } from "./membership-log";
import type { KeyRef } from "./v2-fields";

export { type SignedSealedKey, digest, parseSignedSealedKey } from "./distribution";

/**
 * A v2 conversation's key distribution (docs/protocol.md, "Signed distribution"): the conversation
 * record its author signs (participants, their key ids, a commitment to the key, the log head it
 * follows), and each sealed copy of the key signed by its sealer. An opener takes a key only from
 * a participant's signed copy, and only when it matches the commitment, so neither the server
 * nor a participant can hand some people a different key. The machinery is `distribution.ts`,
 * shared with groups; this module names the conversation's records and strings.
 */

/** A conversation and the epoch of its key (v2 always names the epoch). */
export interface ConversationEpoch {
  conversationId: number;
  epoch: number;
}

export interface ConversationRecord extends KeyRecordFields {
  type: "conversation";
  v: 2;
  conversationId: number;
  /** Sorted by user id: each participant and the key their copy is sealed for. */
  participants: KeyRef[];
}

export interface SignedConversation {
  record: ConversationRecord;
  signature: string;
}

/** What a sealer signs for one copy; rebuilt by the opener from what it expects, never taken from the server. */
export interface SealedKeyRecord extends SealedCopyFields {
  type: "sealed-key";
  v: 2;
  conversationId: number;
  epoch: number;
}

export const CONVERSATION_DISTRIBUTION: DistributionKind = {
  kind: "conversation",
  recordType: "conversation",
  idField: "conversationId",
  membersField: "participants",
  copyType: "sealed-key",
  keyContext: conversationKeyContext,
  chainAad: epochChainAad,
};

const KIND = CONVERSATION_DISTRIBUTION;

/**
 * The key commitment over the context `conversation-key:<id>:<epoch>` (docs/protocol.md, "Key
 * commitment"). A key given as a WebCrypto key must be extractable; an opener commits from the
 * raw bytes it opened, before importing them.
 */
export function commitKey(key: Key | Uint8Array, place: ConversationEpoch): Promise<string> {
  return commitKeyOf(KIND, key, place?.conversationId, place?.epoch);
}

/**
 * The author's record for the log's current state: participants (with the keys their copies are
 * sealed for) must be the log's members, the author one of its admins, and no rekey pending.
 */
export function createConversationRecord(key: Key, participants: readonly KeyRef[], log: VerifiedLog, author: IdentityKeys): Promise<SignedConversation> {
  return createKeyRecord<ConversationRecord>(KIND, key, participants, log, author);
}

/**
 * Checks a conversation record against the verified membership log: signed by its author's
 * verified key (untrusted_key, bad_signature); naming a head of this log (log_fork); this
 * conversation, the epoch and the members of the log at that head (bad_chain); the author an admin
 * there (not_permitted). Answers the record (for its commitment and participants).
 */
export async function verifyConversationRecord(signed: SignedConversation, log: VerifiedLog, keysOf: KeysOf): Promise<ConversationRecord> {
  return (await verifyKeyRecord<ConversationRecord>(KIND, signed, log, keysOf)).record;
}

/** Seals the key for one participant (a verified key the record names) and signs the copy. */
export function sealSignedConversationKey(key: Key, conversation: ConversationRecord, recipient: VerifiedKey, sealer: IdentityKeys): Promise<SignedSealedKey> {
  return sealSignedConversationKeyWith(key, conversation, recipient, sealer, undefined);
}

/** sealSignedConversationKey with the randomness supplied: for known-answer tests only. */
export function sealSignedConversationKeyWith(
  key: Key,
  conversation: ConversationRecord,
  recipient: VerifiedKey,
  sealer: IdentityKeys,
  fixed: SealRandomness | undefined,
): Promise<SignedSealedKey> {
  return sealKeyCopy(KIND, key, conversation, recipient, sealer, isParticipant(conversation), fixed);
}

/**
 * Opens one's copy of the key of a verified conversation record: the copy must be for this
 * conversation, epoch and key of the recipient, signed by a participant's verified key
 * (not_permitted, untrusted_key, bad_signature over the record rebuilt from what the opener
 * expects), open (decrypt_failed), and match the record's commitment (bad_commitment). The key is
 * extractable (to seal for a newcomer).
 */
export function openSignedConversationKey(copy: SignedSealedKey, conversation: ConversationRecord, recipient: IdentityKeys, keysOf: KeysOf): Promise<Key> {
  return openKeyCopy(KIND, copy, conversation, recipient, keysOf, isParticipant(conversation), { extractable: true });
}

const isParticipant = (conversation: ConversationRecord) => (userId: number) => conversation?.participants?.some((p) => p.userId === userId) === true;

/** A signed conversation record, checked for its exact shape only (malformed_record): what a server can check without keys. */
export function parseSignedConversation(value: unknown): SignedConversation {
  return parseSignedKeyRecord<ConversationRecord>(KIND, value);
}
