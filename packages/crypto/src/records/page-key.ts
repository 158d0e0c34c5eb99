import { decrypt, exportSymmetricKey, generateSymmetricKey, importSymmetricKey } from "../aead";
import type { Bytes } from "../bytes";
import { wipe } from "../bytes";
import { parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { type SealedCopyFields, type SignedSealedKey, containerIdOf, openSigned, parseSignedSealedKey, sealSigned } from "./distribution";
import { GROUP_DISTRIBUTION } from "./group-key";
import type { IdentityKeys, KeysOf, VerifiedKey } from "./identity-keys";
import type { VerifiedLog } from "./membership-log";
import { type ExtractableOption, checkId, checkPlace, encryptRecord } from "./place";
import { type RecordPlace, checkRecordId } from "./record-key";
import type { KeyRef } from "./v2-fields";

/**
 * Page keys (docs/protocol.md, "Restricted pages"): a page whose read permission is narrower
 * than the whole group keeps its records' keys out of the group key's reach. Its records' DEKs
 * are wrapped under a **page key** instead of an epoch key; the page key is sealed for each
 * reader's verified key and signed by the administrator who made it. Each change of who reads the
 * page that takes someone out makes a new **generation**; generation g carries generation g-1's
 * key (the chain link), so a reader given only the newest copy still reads older records. Every
 * string names the group, the page and the generation.
 */

/** Which page key: the page of a group and the key's generation (1, 2, …). */
export interface PageKeyPlace {
  groupId: number;
  pageId: number;
  generation: number;
}

/** A record of a restricted page: its record id and the page key generation its DEK is wrapped under. */
export interface PageRecordPlace extends RecordPlace {
  pageId: number;
  generation: number;
}

/** What the administrator signs for one reader's copy of a page key; rebuilt by the opener, never taken from the server. */
export interface PageKeyCopyRecord extends SealedCopyFields {
  type: "page-key";
  v: 2;
  groupId: number;
  pageId: number;
  generation: number;
}

function pageSuffix(place: PageKeyPlace): string {
  const { groupId, pageId, generation } = checkPlace(place, "the page key's place");
  return `${checkId(groupId, "a group id")}:${checkId(pageId, "a page id")}:${checkId(generation, "a page key generation")}`;
}

/** `pagekey:<groupId>:<pageId>:<generation>`: the seal context of a reader's copy. */
export function pageKeyContext(place: PageKeyPlace): string {
  return `pagekey:${pageSuffix(place)}`;
}

/** `pagekey-chain:<groupId>:<pageId>:<generation>`: the associated data of generation-1's key under this generation's. */
export function pageKeyChainAad(place: PageKeyPlace): string {
  return `pagekey-chain:${pageSuffix(place)}`;
}

/** `pagedockey:<groupId>:<recordId>:<pageId>:<generation>`: the associated data of a record's DEK under a page key. */
export function pageDockeyAad(place: PageRecordPlace): string {
  const p = checkPlace(place, "the record's place");
  return `pagedockey:${checkId(p.groupId, "a group id")}:${checkRecordId(p.recordId)}:${checkId(p.pageId, "a page id")}:${checkId(p.generation, "a page key generation")}`;
}

/** A new page key (AES-256-GCM), extractable: it is sealed for each reader and chained once, then dropped. */
export function generatePageKey(): Promise<Key> {
  return generateSymmetricKey();
}

function copyRecord(place: PageKeyPlace, recipient: KeyRef, sealedDigest: string, sealer: KeyRef): PageKeyCopyRecord {
  return {
    type: "page-key",
    v: 2,
    groupId: place.groupId,
    pageId: place.pageId,
    generation: place.generation,
    recipientUserId: recipient.userId,
    recipientKeyId: recipient.keyId,
    sealedDigest,
    sealer: sealer.userId,
    sealerKeyId: sealer.keyId,
  };
}

/** Whether a user was an administrator of the group at some point of its verified log (the log must be this group's). */
function wasAdmin(groupId: number, log: VerifiedLog, userId: number): boolean {
  if (containerIdOf(GROUP_DISTRIBUTION, log) !== groupId) throw new CryptoError("invalid_input", "the log is not this group's");
  return log.history.some((state) => state.admins.includes(userId));
}

/**
 * Seals the page key (extractable) for one reader's verified key under
 * `pagekey:<groupId>:<pageId>:<generation>` and signs the copy. The sealer must have been an
 * administrator of the group per its verified log (not_permitted): pages' permissions are theirs.
 */
export async function sealPageKey(pageKey: Key, place: PageKeyPlace, log: VerifiedLog, reader: VerifiedKey, sealer: IdentityKeys): Promise<SignedSealedKey> {
  const context = pageKeyContext(place);
  if (!wasAdmin(place.groupId, log, sealer?.userId)) throw new CryptoError("not_permitted", "only an administrator of the group seals a page key");
  if (typeof reader?.encryptPublic !== "string") throw new CryptoError("invalid_input", "the reader's verified key is missing");
  const raw = await exportSymmetricKey(pageKey);
  try {
    return await sealSigned(raw, reader, context, (digest) => copyRecord(place, reader, digest, sealer), sealer, undefined);
  } finally {
    wipe(raw);
  }
}

/**
 * Opens one's own copy of a page key: signed by someone who was an administrator per the group's
 * verified log (not_permitted), with their verified key (untrusted_key), over the copy record
 * rebuilt for this group, page, generation and one's own key (bad_signature: a copy moved to
 * another page, generation or reader); opens (decrypt_failed); 32 bytes (invalid_payload). Not
 * extractable unless asked (the administrator who chains the next generation).
 */
export async function openPageKey(copy: SignedSealedKey, place: PageKeyPlace, log: VerifiedLog, me: IdentityKeys, keysOf: KeysOf, options: ExtractableOption = {}): Promise<Key> {
  const context = pageKeyContext(place);
  const { sealer } = parseSignedSealedKey(copy);
  if (!wasAdmin(place.groupId, log, sealer)) throw new CryptoError("not_permitted", "the page key was sealed by someone who was never an administrator of the group");
  return importKey(await openSigned(copy, me, context, (digest, by) => copyRecord(place, me, digest, by), keysOf), options);
}

/** Generation g's link: generation g-1's key (extractable) under generation g's, for `place` naming g (g ≥ 2). */
export async function sealPageKeyLink(pageKey: Key, previous: Key, place: PageKeyPlace): Promise<string> {
  const aad = pageKeyChainAad(place);
  if (place.generation < 2) throw new CryptoError("invalid_input", "the first generation has no link");
  const raw = await exportSymmetricKey(previous);
  try {
    return await encryptRecord(pageKey, raw, aad, undefined);
  } finally {
    wipe(raw);
  }
}

/** Opens generation g's link with g's key (`place` names g) and answers g-1's key: another group, page or generation, any change: decrypt_failed. */
export async function openPageKeyLink(pageKey: Key, link: string, place: PageKeyPlace, options: ExtractableOption = {}): Promise<Key> {
  const aad = pageKeyChainAad(place);
  return importKey(await decrypt(pageKey, parseEnvelope(link, "aead"), { aad }), options);
}

/** Wraps a record's DEK (extractable) under the page key its place names: the record's dockey on a restricted page. */
export async function wrapRecordKeyForPage(pageKey: Key, dek: Key, place: PageRecordPlace): Promise<string> {
  const aad = pageDockeyAad(place);
  const raw = await exportSymmetricKey(dek);
  try {
    return await encryptRecord(pageKey, raw, aad, undefined);
  } finally {
    wipe(raw);
  }
}

/** Opens a dockey made under a page key: another group, record, page or generation, another key, any change: decrypt_failed. */
export async function unwrapRecordKeyForPage(pageKey: Key, dockey: string, place: PageRecordPlace, options: ExtractableOption = {}): Promise<Key> {
  const aad = pageDockeyAad(place);
  return importKey(await decrypt(pageKey, parseEnvelope(dockey, "aead"), { aad }), options);
}

async function importKey(raw: Bytes, options: ExtractableOption): Promise<Key> {
  try {
    if (raw.length !== 32) throw new CryptoError("invalid_payload", "a key has 32 bytes");
    return await importSymmetricKey(raw, { extractable: options?.extractable === true });
  } finally {
    wipe(raw);
  }
}
