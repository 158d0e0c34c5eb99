import { decrypt, exportSymmetricKey, generateSymmetricKey, importSymmetricKey } from "../aead";
import { type Bytes, base64urlEncode, tryBase64urlDecode, wipe } from "../bytes";
import { parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import { type Key, randomBytes } from "../primitives";
import type { SealRandomness } from "./conversation-key";
import { type SealedCopyFields, type SignedSealedKey, containerIdOf, openSigned, parseSignedSealedKey, sealSigned } from "./distribution";
import { GROUP_DISTRIBUTION } from "./group-key";
import type { IdentityKeys, KeysOf, VerifiedKey } from "./identity-keys";
import type { VerifiedLog } from "./membership-log";
import { type ExtractableOption, checkId, checkPlace, encryptRecord } from "./place";
import type { KeyRef } from "./v2-fields";

/**
 * Record (mote) data keys (docs/protocol.md, "Records and dockeys"): each record payload is
 * encrypted under its own random key (the DEK); the DEK is wrapped under the group's epoch key
 * (the dockey), and for items with explicit grants also sealed, and signed, for each grantee.
 *
 * A record is named by a **record id the client chooses**: 16 random bytes, base64url
 * (`generateRecordId`). The server's own id for the item is assigned only when it stores it, after
 * everything here is sealed; the client's id is in every string below and is stored with the item
 * (unique per group, a conditional write), so an item can be sealed offline and before the server
 * has seen it, and the same id serves as the idempotency key of its creation.
 */

/** Where a record belongs: its group and the client-chosen record id. */
export interface RecordPlace {
  groupId: number;
  recordId: string;
}

/** A record's DEK under one epoch of its group's key. */
export interface DockeyPlace extends RecordPlace {
  epoch: number;
}

/** What a granter signs for one grantee's copy of a record key; rebuilt by the opener, never taken from the server. */
export interface RecordGrantRecord extends SealedCopyFields {
  type: "record-grant";
  v: 2;
  groupId: number;
  recordId: string;
}

export const RECORD_ID_BYTES = 16;

/** A new record id: 16 random bytes as base64url (22 characters, no colon). */
export function generateRecordId(): string {
  return base64urlEncode(randomBytes(RECORD_ID_BYTES));
}

/** A record id is the canonical base64url of 16 bytes, else invalid_input (so each place has one string). */
export function checkRecordId(value: unknown): string {
  if (typeof value !== "string" || value.length !== 22 || tryBase64urlDecode(value)?.length !== RECORD_ID_BYTES) {
    throw new CryptoError("invalid_input", "a record id is 16 bytes in base64url (22 characters)");
  }
  return value;
}

function recordSuffix(place: RecordPlace): string {
  const { groupId, recordId } = checkPlace(place, "the record's place");
  return `${checkId(groupId, "a group id")}:${checkRecordId(recordId)}`;
}

/** `mote:<groupId>:<recordId>`: the associated data of a record's payload under its DEK. */
export function recordPayloadAad(groupId: number, recordId: string): string {
  return `mote:${recordSuffix({ groupId, recordId })}`;
}

/** `dockey:<groupId>:<recordId>:<epoch>`: the associated data of a record's DEK under an epoch key. */
export function dockeyAad(groupId: number, recordId: string, epoch: number): string {
  return `dockey:${recordSuffix({ groupId, recordId })}:${checkId(epoch, "an epoch", 0)}`;
}

/** `dek:<groupId>:<recordId>`: the seal context of a record's DEK for a grantee. */
export function recordGrantContext(groupId: number, recordId: string): string {
  return `dek:${recordSuffix({ groupId, recordId })}`;
}

/**
 * A new random record key (AES-256-GCM). Extractable, because it is wrapped under the epoch key
 * (and sealed for grantees) once; drop it after. It encrypts one payload: a changed payload gets a
 * new DEK, wrapped under the epoch key current then.
 */
export function generateRecordKey(): Promise<Key> {
  return generateSymmetricKey();
}

/** Wraps the DEK (extractable) under the group's epoch key: the dockey, an `aead` envelope's text. */
export function wrapRecordKey(epochKey: Key, dek: Key, place: DockeyPlace): Promise<string> {
  return wrapRecordKeyWith(epochKey, dek, place, undefined);
}

/** wrapRecordKey with the nonce supplied: for known-answer tests only. */
export async function wrapRecordKeyWith(epochKey: Key, dek: Key, place: DockeyPlace, nonce: Uint8Array | undefined): Promise<string> {
  const aad = dockeyAad(place?.groupId, place?.recordId, place?.epoch);
  const raw = await exportSymmetricKey(dek);
  try {
    return await encryptRecord(epochKey, raw, aad, nonce);
  } finally {
    wipe(raw);
  }
}

/**
 * Opens a dockey with the epoch key its place names: another group, record or epoch, another key,
 * any change: decrypt_failed; not a 32-byte key inside: invalid_payload. Not extractable unless
 * asked (to grant it).
 */
export async function unwrapRecordKey(epochKey: Key, dockey: string, place: DockeyPlace, options: ExtractableOption = {}): Promise<Key> {
  const aad = dockeyAad(place?.groupId, place?.recordId, place?.epoch);
  return importRaw(await decrypt(epochKey, parseEnvelope(dockey, "aead"), { aad }), options);
}

/** Encrypts a record's payload under its DEK; answers the envelope's text. */
export function sealRecordPayload(dek: Key, place: RecordPlace, payload: Uint8Array): Promise<string> {
  return sealRecordPayloadWith(dek, place, payload, undefined);
}

/** sealRecordPayload with the nonce supplied: for known-answer tests only. */
export async function sealRecordPayloadWith(dek: Key, place: RecordPlace, payload: Uint8Array, nonce: Uint8Array | undefined): Promise<string> {
  return encryptRecord(dek, payload, recordPayloadAad(place?.groupId, place?.recordId), nonce);
}

/** Opens a record's payload: another group or record, another DEK, any change: decrypt_failed. */
export async function openRecordPayload(dek: Key, envelope: string, place: RecordPlace): Promise<Bytes> {
  return decrypt(dek, parseEnvelope(envelope, "aead"), { aad: recordPayloadAad(place?.groupId, place?.recordId) });
}

function grantRecord(place: RecordPlace, recipient: KeyRef, sealedDigest: string, sealer: KeyRef): RecordGrantRecord {
  return {
    type: "record-grant",
    v: 2,
    groupId: place.groupId,
    recordId: place.recordId,
    recipientUserId: recipient.userId,
    recipientKeyId: recipient.keyId,
    sealedDigest,
    sealer: sealer.userId,
    sealerKeyId: sealer.keyId,
  };
}

/**
 * Seals the DEK (extractable) for a grantee's verified key under `dek:<groupId>:<recordId>` and
 * signs the grant. The granter must be a member of the group per its verified log (not_permitted);
 * whether they may grant this item is the access layer's question.
 */
export function grantRecordKey(dek: Key, place: RecordPlace, log: VerifiedLog, grantee: VerifiedKey, granter: IdentityKeys): Promise<SignedSealedKey> {
  return grantRecordKeyWith(dek, place, log, grantee, granter, undefined);
}

/** grantRecordKey with the randomness supplied: for known-answer tests only. */
export async function grantRecordKeyWith(
  dek: Key,
  place: RecordPlace,
  log: VerifiedLog,
  grantee: VerifiedKey,
  granter: IdentityKeys,
  fixed: SealRandomness | undefined,
): Promise<SignedSealedKey> {
  const context = recordGrantContext(place?.groupId, place?.recordId);
  if (!wasMember(place, log, granter?.userId)) throw new CryptoError("not_permitted", "the granter is not a member of the group");
  if (typeof grantee?.encryptPublic !== "string") throw new CryptoError("invalid_input", "the grantee's verified key is missing");
  const raw = await exportSymmetricKey(dek);
  try {
    return await sealSigned(raw, grantee, context, (digest) => grantRecord(place, grantee, digest, granter), granter, fixed);
  } finally {
    wipe(raw);
  }
}

/**
 * Opens a grant of a record's DEK made for one's own key: signed by a member of the group per its
 * verified log (not_permitted) with their verified key (untrusted_key) over the grant record
 * rebuilt for this group, record and recipient key (bad_signature: a grant moved or swapped);
 * opens (decrypt_failed); holds a 32-byte key (invalid_payload). Not extractable unless asked.
 */
export async function openRecordGrant(grant: SignedSealedKey, place: RecordPlace, log: VerifiedLog, recipient: IdentityKeys, keysOf: KeysOf, options: ExtractableOption = {}): Promise<Key> {
  const context = recordGrantContext(place?.groupId, place?.recordId);
  const { sealer } = parseSignedSealedKey(grant);
  if (!wasMember(place, log, sealer)) throw new CryptoError("not_permitted", "the grant was sealed by someone who was never a member of the group");
  const expected = (digest: string, by: KeyRef) => grantRecord(place, recipient, digest, by);
  return importRaw(await openSigned(grant, recipient, context, expected, keysOf), options);
}

/** Whether a user was a member of the group at some point of its verified log. */
function wasMember(place: RecordPlace, log: VerifiedLog, userId: number): boolean {
  if (containerIdOf(GROUP_DISTRIBUTION, log) !== place.groupId) throw new CryptoError("invalid_input", "the log is not this group's");
  return log.history.some((state) => state.members.some((member) => member.userId === userId));
}

async function importRaw(raw: Bytes, options: ExtractableOption): Promise<Key> {
  try {
    if (raw.length !== 32) throw new CryptoError("invalid_payload", "a record key has 32 bytes");
    return await importSymmetricKey(raw, { extractable: options?.extractable === true });
  } finally {
    wipe(raw);
  }
}
