import * as z from "zod";
import { decrypt, exportSymmetricKey, generateSymmetricKey, importSymmetricKey } from "../aead";
import { type Bytes, base64urlEncode, concatBytes, tryBase64urlDecode, wipe } from "../bytes";
import { parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import type { SealRandomness } from "./conversation-key";
import { type SealedCopyFields, type SignedSealedKey, containerIdOf, digest, openSigned, sealSigned } from "./distribution";
import { GROUP_DISTRIBUTION } from "./group-key";
import type { IdentityKeys, KeysOf, VerifiedKey } from "./identity-keys";
import type { VerifiedLog } from "./membership-log";
import { type ExtractableOption, checkId, checkPlace, encryptRecord } from "./place";
import { type RecordPlace, checkRecordId } from "./record-key";
import { type KeyRef, digestField, idField, keyIdField, parseRecord, signatureField } from "./v2-fields";

/**
 * Page keys (docs/protocol.md, "Restricted pages"): a page whose read permission is narrower
 * than the whole group keeps its records' keys out of the group key's reach. Its records' DEKs
 * are wrapped under a **page key** instead of an epoch key; the page key is sealed for each
 * reader's verified key and signed by the administrator who made it. Each change of who reads the
 * page that takes someone out makes a new **generation**; generation g carries generation g-1's
 * key (the chain link), so a reader given only the newest copy still reads older records. The
 * signature over each copy covers the digest of the link its generation carries, and each link
 * the digest of the link before it: a reader who holds a generation's key cannot pass off another
 * link as its generation's. Every string names the group, the page and the generation.
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
  /** The digest of the link this generation carries (`pageKeyLinkDigest`); null for the first generation, which carries none. */
  linkDigest: string | null;
}

/** One reader's copy of a generation's key as the server stores and serves it: a signed copy and the link digest its signature covers. */
export interface PageKeyCopy extends SignedSealedKey {
  linkDigest: string | null;
}

/**
 * A generation's key as opened, with the digest of the link it carries as a signature vouches for
 * it: the generation's signed copy, or (a key reached through the chain) the verified link of the
 * generation after it. Only a link with this digest is opened with the key (openPageKeyLink).
 */
export interface OpenedPageKey {
  key: Key;
  linkDigest: string | null;
}

const pageKeyCopySchema = z.strictObject({ sealed: z.string().min(1).max(4096), signature: signatureField, sealer: idField, sealerKeyId: keyIdField, linkDigest: digestField.nullable() });

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

function copyRecord(place: PageKeyPlace, linkDigest: string | null, recipient: KeyRef, sealedDigest: string, sealer: KeyRef): PageKeyCopyRecord {
  return {
    type: "page-key",
    v: 2,
    groupId: place.groupId,
    pageId: place.pageId,
    generation: place.generation,
    linkDigest,
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

/** base64url(SHA-256(UTF-8(the link's text))): how a generation's signed copies name the link it carries. */
export function pageKeyLinkDigest(link: string): Promise<string> {
  return digest(link);
}

/** A link digest as a generation of this place must have it: none for the first generation, one from the second on. */
function checkLinkDigest(place: PageKeyPlace, linkDigest: string | null, code: "invalid_input" | "bad_chain"): string | null {
  const first = place.generation === 1;
  if (first ? linkDigest !== null : typeof linkDigest !== "string") {
    throw new CryptoError(code, first ? "the first generation carries no link" : "a generation after the first names the link it carries");
  }
  return linkDigest;
}

/**
 * Seals the page key (extractable) for one reader's verified key under
 * `pagekey:<groupId>:<pageId>:<generation>` and signs the copy together with `linkDigest`, the
 * digest of the link this generation carries: `pageKeyLinkDigest` of the link one has just made,
 * or the `linkDigest` of one's own opened copy (never of a link as the server serves it); null
 * for the first generation. The sealer must have been an administrator of the group per its
 * verified log (not_permitted): pages' permissions are theirs.
 */
export function sealPageKey(pageKey: Key, place: PageKeyPlace, linkDigest: string | null, log: VerifiedLog, reader: VerifiedKey, sealer: IdentityKeys): Promise<PageKeyCopy> {
  return sealPageKeyWith(pageKey, place, linkDigest, log, reader, sealer, undefined);
}

/** sealPageKey with the randomness supplied: for known-answer tests only. */
export async function sealPageKeyWith(
  pageKey: Key,
  place: PageKeyPlace,
  linkDigest: string | null,
  log: VerifiedLog,
  reader: VerifiedKey,
  sealer: IdentityKeys,
  fixed: SealRandomness | undefined,
): Promise<PageKeyCopy> {
  const context = pageKeyContext(place);
  const link = checkLinkDigest(place, linkDigest, "invalid_input");
  if (link !== null) parseRecord(digestField, link, "link digest", "invalid_input");
  if (!wasAdmin(place.groupId, log, sealer?.userId)) throw new CryptoError("not_permitted", "only an administrator of the group seals a page key");
  if (typeof reader?.encryptPublic !== "string") throw new CryptoError("invalid_input", "the reader's verified key is missing");
  const raw = await exportSymmetricKey(pageKey);
  try {
    return { ...(await sealSigned(raw, reader, context, (digest) => copyRecord(place, link, reader, digest, sealer), sealer, fixed)), linkDigest: link };
  } finally {
    wipe(raw);
  }
}

/**
 * Opens one's own copy of a page key: signed by someone who was an administrator per the group's
 * verified log (not_permitted), with their verified key (untrusted_key), over the copy record
 * rebuilt for this group, page, generation and one's own key with the link digest the copy names
 * (bad_signature: a copy moved to another page, generation or reader, or naming another link); a
 * link digest for the first generation or none for a later one (bad_chain); opens
 * (decrypt_failed); 32 bytes (invalid_payload). Answers the key and the link digest its signature
 * vouches for. Not extractable unless asked (the administrator who chains the next generation).
 */
export async function openPageKey(copy: PageKeyCopy, place: PageKeyPlace, log: VerifiedLog, me: IdentityKeys, keysOf: KeysOf, options: ExtractableOption = {}): Promise<OpenedPageKey> {
  const context = pageKeyContext(place);
  const { linkDigest, ...signed } = parseRecord(pageKeyCopySchema, copy, "page key copy");
  if (!wasAdmin(place.groupId, log, signed.sealer)) throw new CryptoError("not_permitted", "the page key was sealed by someone who was never an administrator of the group");
  checkLinkDigest(place, linkDigest, "bad_chain");
  const key = await importKey(await openSigned(signed, me, context, (digest, by) => copyRecord(place, linkDigest, me, digest, by), keysOf), options);
  return { key, linkDigest };
}

/**
 * Generation g's link, for `place` naming g (g ≥ 2): under g's key, generation g-1's key
 * (extractable) followed, from generation 3 on, by the SHA-256 of the link g-1 carries (the
 * `linkDigest` of `previous`), so that a link vouched for vouches for the whole chain below it.
 */
export function sealPageKeyLink(pageKey: Key, previous: OpenedPageKey, place: PageKeyPlace): Promise<string> {
  return sealPageKeyLinkWith(pageKey, previous, place, undefined);
}

/** sealPageKeyLink with the nonce supplied: for known-answer tests only. */
export async function sealPageKeyLinkWith(pageKey: Key, previous: OpenedPageKey, place: PageKeyPlace, nonce: Uint8Array | undefined): Promise<string> {
  const aad = pageKeyChainAad(place);
  if (place.generation < 2) throw new CryptoError("invalid_input", "the first generation has no link");
  const before = checkLinkDigest({ ...place, generation: place.generation - 1 }, previous?.linkDigest ?? null, "invalid_input");
  const carried = before === null ? new Uint8Array(0) : tryBase64urlDecode(before);
  if (!carried || carried.length !== (before === null ? 0 : 32)) throw new CryptoError("invalid_input", "the previous generation's link digest has 32 bytes");
  const raw = await exportSymmetricKey(previous.key);
  const plaintext = concatBytes(raw, carried);
  try {
    return await encryptRecord(pageKey, plaintext, aad, nonce);
  } finally {
    wipe(raw);
    wipe(plaintext);
  }
}

/**
 * Opens generation g's link (`place` names g) with g's opened key and answers g-1's: the link
 * must be the one g's signed copy (or the verified link of g+1) names (bad_chain: a link the
 * server or a reader swapped in); another group, page or generation, any change: decrypt_failed;
 * not a key and, from generation 3 on, the digest of the link before: invalid_payload.
 */
export async function openPageKeyLink(opened: OpenedPageKey, link: string, place: PageKeyPlace, options: ExtractableOption = {}): Promise<OpenedPageKey> {
  const aad = pageKeyChainAad(place);
  if (place.generation < 2) throw new CryptoError("invalid_input", "the first generation has no link");
  if (typeof opened?.linkDigest !== "string" || opened.linkDigest !== (await digest(link))) {
    throw new CryptoError("bad_chain", "the link is not the one this generation's signed copy names");
  }
  const plaintext = await decrypt(opened.key, parseEnvelope(link, "aead"), { aad });
  try {
    const carries = place.generation > 2;
    if (plaintext.length !== (carries ? 64 : 32)) throw new CryptoError("invalid_payload", carries ? "a link holds a key and the digest of the link before" : "the second generation's link holds a key");
    const linkDigest = carries ? base64urlEncode(plaintext.subarray(32)) : null;
    return { key: await importKey(plaintext.slice(0, 32), options), linkDigest };
  } finally {
    wipe(plaintext);
  }
}

/** Wraps a record's DEK (extractable) under the page key its place names: the record's dockey on a restricted page. */
export function wrapRecordKeyForPage(pageKey: Key, dek: Key, place: PageRecordPlace): Promise<string> {
  return wrapRecordKeyForPageWith(pageKey, dek, place, undefined);
}

/** wrapRecordKeyForPage with the nonce supplied: for known-answer tests only. */
export async function wrapRecordKeyForPageWith(pageKey: Key, dek: Key, place: PageRecordPlace, nonce: Uint8Array | undefined): Promise<string> {
  const aad = pageDockeyAad(place);
  const raw = await exportSymmetricKey(dek);
  try {
    return await encryptRecord(pageKey, raw, aad, nonce);
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
