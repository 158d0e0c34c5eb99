import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import type { SealRandomness } from "./conversation-key";
import {
  type DistributionKind,
  type KeyRecordFields,
  type SealedCopyFields,
  type SignedSealedKey,
  commitKeyOf,
  containerIdOf,
  createKeyRecord,
  openChainLink,
  openKeyCopy,
  parseSignedKeyRecord,
  sealChainLink,
  sealKeyCopy,
  verifyKeyRecord,
} from "./distribution";
import type { IdentityKeys, KeysOf, VerifiedKey } from "./identity-keys";
import type { VerifiedLog } from "./membership-log";
import { type ExtractableOption, checkId } from "./place";
import type { KeyRef } from "./v2-fields";

/**
 * A group's epoch keys (docs/protocol.md, "Group keys"): the conversations' signed distribution
 * with the group's names and strings. The group's membership log (`group:<id>`) says who is a
 * member and who is an admin; per epoch an admin signs the group record (members, their key ids,
 * a commitment to the epoch key, the log head it follows) and seals a signed copy of the epoch key
 * for each member; each epoch's key carries the key of the epoch before it, so a member added
 * later reaches every older epoch from one copy. Unlike a conversation, where any participant may
 * seal a copy, only an admin of the group hands out its key.
 */

/** A group and the epoch of its key. */
export interface GroupEpoch {
  groupId: number;
  epoch: number;
}

export interface GroupRecord extends KeyRecordFields {
  type: "group";
  v: 2;
  groupId: number;
  /** Sorted by user id: each member and the key their copy is sealed for. */
  members: KeyRef[];
}

export interface SignedGroup {
  record: GroupRecord;
  signature: string;
}

/** What an admin signs for one member's copy of an epoch key; rebuilt by the opener, never taken from the server. */
export interface GroupSealedKeyRecord extends SealedCopyFields {
  type: "group-sealed-key";
  v: 2;
  groupId: number;
  epoch: number;
}

/** `group-key:<groupId>:<epoch>`: the seal context of a member's copy, and what the commitment covers. */
export function groupKeyContext(groupId: number, epoch: number): string {
  return `group-key:${checkId(groupId, "a group id")}:${checkId(epoch, "an epoch", 0)}`;
}

/**
 * `group-epoch-chain:<groupId>:<epoch>` (epoch ≥ 1, the epoch that carries the link). Not
 * `epoch-chain:…`, which conversations use: group and conversation ids are separate counters, and
 * the kind in the string keeps a group's link from ever reading as a conversation's.
 */
export function groupEpochChainAad(groupId: number, epoch: number): string {
  return `group-epoch-chain:${checkId(groupId, "a group id")}:${checkId(epoch, "an epoch with a previous one", 1)}`;
}

export const GROUP_DISTRIBUTION: DistributionKind = {
  kind: "group",
  recordType: "group",
  idField: "groupId",
  membersField: "members",
  copyType: "group-sealed-key",
  keyContext: groupKeyContext,
  chainAad: groupEpochChainAad,
};

const KIND = GROUP_DISTRIBUTION;

/**
 * HMAC-SHA-256 under the raw 32-byte epoch key over "sealwork/v2/key-commitment\n" +
 * `group-key:<groupId>:<epoch>`, base64url. A WebCrypto key must be extractable.
 */
export function commitGroupKey(key: Key | Uint8Array, place: GroupEpoch): Promise<string> {
  return commitKeyOf(KIND, key, place?.groupId, place?.epoch);
}

/**
 * The group record for the log's current state, signed by an admin (not_permitted): the members
 * (with the keys their copies are sealed for) must be the log's (invalid_input), no rekey pending
 * (invalid_input). A new record is signed at every change of members; `promote` needs none.
 */
export function createGroupRecord(key: Key, members: readonly KeyRef[], log: VerifiedLog, author: IdentityKeys): Promise<SignedGroup> {
  return createKeyRecord<GroupRecord>(KIND, key, members, log, author);
}

/**
 * Checks a group record against the group's verified log: its author's verified key and signature
 * (untrusted_key, bad_signature); a head of this log (log_fork); this group, the epoch and exactly
 * the log's members at that head (bad_chain: a ghost member, or one left out); the author an admin
 * there (not_permitted). Answers the record.
 */
export async function verifyGroupRecord(signed: SignedGroup, log: VerifiedLog, keysOf: KeysOf): Promise<GroupRecord> {
  return (await verifyKeyRecord<GroupRecord>(KIND, signed, log, keysOf)).record;
}

/**
 * Seals the epoch key for one member (a verified key the record names: invalid_input) and signs
 * the copy. The sealer must be an admin of the group in the record's epoch (not_permitted) and the
 * key the committed one (bad_commitment).
 */
export function sealGroupKey(key: Key, group: GroupRecord, log: VerifiedLog, recipient: VerifiedKey, sealer: IdentityKeys): Promise<SignedSealedKey> {
  return sealGroupKeyWith(key, group, log, recipient, sealer, undefined);
}

/** sealGroupKey with the randomness supplied: for known-answer tests only. */
export async function sealGroupKeyWith(key: Key, group: GroupRecord, log: VerifiedLog, recipient: VerifiedKey, sealer: IdentityKeys, fixed: SealRandomness | undefined): Promise<SignedSealedKey> {
  return sealKeyCopy(KIND, key, group, recipient, sealer, adminOfEpoch(group, log), fixed);
}

/**
 * Opens one's copy of the epoch key of a verified group record: the record must name this key of
 * the recipient, the sealer must have been an admin of the group in that epoch per the verified
 * log (not_permitted); the copy is signed by the sealer's verified key over the copy record rebuilt
 * from what the opener expects (untrusted_key, bad_signature), opens (decrypt_failed) and is the
 * committed key (bad_commitment). Not extractable unless asked (an admin who seals it for a
 * newcomer or chains it into the next epoch).
 */
export async function openGroupKey(copy: SignedSealedKey, group: GroupRecord, log: VerifiedLog, recipient: IdentityKeys, keysOf: KeysOf, options: ExtractableOption = {}): Promise<Key> {
  return openKeyCopy(KIND, copy, group, recipient, keysOf, adminOfEpoch(group, log), options);
}

/** Whether a user was an admin of the group at some entry of the record's epoch, per the group's log. */
function adminOfEpoch(group: GroupRecord, log: VerifiedLog): (userId: number) => boolean {
  if (containerIdOf(KIND, log) !== group?.groupId) throw new CryptoError("invalid_input", "the log is not this group's");
  return (userId) => log.history.some((state) => state.epoch === group.epoch && state.admins.includes(userId));
}

/** Encrypts the previous epoch's key (extractable) under the new epoch's key; answers the envelope's text. */
export function sealGroupEpochLink(key: Key, previous: Key, place: GroupEpoch): Promise<string> {
  return sealGroupEpochLinkWith(key, previous, place, undefined);
}

/** sealGroupEpochLink with the nonce supplied: for known-answer tests only. */
export function sealGroupEpochLinkWith(key: Key, previous: Key, place: GroupEpoch, nonce: Uint8Array | undefined): Promise<string> {
  return sealChainLink(KIND, key, previous, place?.groupId, place?.epoch, nonce);
}

/**
 * Opens the link of epoch `previous.epoch + 1` with that epoch's key and answers the key of the
 * epoch before, checked against `previous`, that epoch's verified group record: wrong key, group or
 * epoch: decrypt_failed; another key than the record commits to: bad_commitment. Not extractable
 * unless asked.
 */
export function openGroupEpochLink(key: Key, link: string, previous: GroupRecord, options: ExtractableOption = {}): Promise<Key> {
  return openChainLink(KIND, key, link, previous, options);
}

/** A signed group record, checked for its exact shape only (malformed_record): what a server can check without keys. */
export function parseSignedGroup(value: unknown): SignedGroup {
  return parseSignedKeyRecord<GroupRecord>(KIND, value);
}
