import * as z from "zod";
import { decrypt, exportSymmetricKey, importSymmetricKey } from "../aead";
import { importEncryptionPublicKey } from "../account-keys";
import { type Bytes, base64urlEncode, equalBytes, tryBase64urlDecode, utf8Encode, wipe } from "../bytes";
import { parseEnvelope, serializeEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import { type Key, hmacSha256, sha256 } from "../primitives";
import { openSealed, sealFor, sealForWith } from "../seal";
import { type RecordV2, signRecordV2, verifyRecordV2 } from "../signatures";
import type { SealRandomness } from "./conversation-key";
import { type IdentityKeys, type KeysOf, resolveSigner } from "./identity-keys";
import { type LogHead, type LogState, type VerifiedLog, membershipContainer } from "./membership-log";
import { type ExtractableOption, checkId, encryptRecord } from "./place";
import { type KeyRef, countField, digestField, idField, keyIdField, keyRefField, logHeadField, parseRecord, signatureField } from "./v2-fields";

/**
 * Signed key distribution for a container with a membership log (docs/protocol.md, "Signed
 * distribution"), written once for every kind of container: conversations and groups differ only
 * in their record's names and their strings (a `DistributionKind`). Per epoch: a record signed by
 * an admin (the members and their key ids, a commitment to the key, the log head it follows);
 * copies of the key sealed for each member and signed by their sealer; and a link that carries
 * the previous epoch's key under the next one's.
 */

/** What one kind of container's distribution is called and which strings bind it. */
export interface DistributionKind {
  /** The membership log's container kind (`<kind>:<id>`). */
  kind: "conversation" | "group";
  /** The signed record's `type`, and the names of its id and member fields. */
  recordType: string;
  idField: string;
  membersField: string;
  /** The `type` of what a sealer signs for one copy. */
  copyType: string;
  /** The seal context of an epoch's key; the commitment covers it too. */
  keyContext: (id: number, epoch: number) => string;
  /** The associated data of the link that epoch `epoch` (≥ 1) carries to the key before it. */
  chainAad: (id: number, epoch: number) => string;
}

/** The fields every kind's record has besides its type, id and members. */
export interface KeyRecordFields {
  epoch: number;
  /** The commitment to the epoch's key (`commitKeyOf`). */
  keyCommitment: string;
  author: number;
  authorKeyId: string;
  /** The membership log's head this record follows. */
  logHead: LogHead;
}

/** Every kind's record under common names for its id and its members. */
export interface KeyRecordView extends KeyRecordFields {
  id: number;
  /** Sorted by user id: each member and the key their copy is sealed for. */
  members: KeyRef[];
}

/** What a sealer signs for one copy besides its type and place; rebuilt by the opener, never taken from the server. */
export interface SealedCopyFields {
  recipientUserId: number;
  recipientKeyId: string;
  /** base64url(SHA-256(UTF-8(the sealed envelope's text))). */
  sealedDigest: string;
  sealer: number;
  sealerKeyId: string;
}

/** One member's copy of an epoch key (or a grantee's copy of a record key) as the server stores it. */
export interface SignedSealedKey {
  /** The `sealed` envelope's text. */
  sealed: string;
  signature: string;
  sealer: number;
  sealerKeyId: string;
}

/** Who may have sealed a copy, judged by the kind's caller (a participant; an admin of the group). */
export type SealerCheck = (sealer: number) => boolean;

/** A recipient's key as the sealer knows it: a verified key, or one's own public keys. */
export type RecipientKey = KeyRef & { encryptPublic: string };

const MAX_MEMBERS = 10_000;


const membersSchema = z
  .array(keyRefField)
  .min(1)
  .max(MAX_MEMBERS)
  .refine((list) => list.every((p, i) => i === 0 || list[i - 1]!.userId < p.userId), "members sorted by user id, each once");

const signedSealedKeySchema = z.strictObject({ sealed: z.string().min(1).max(4096), signature: signatureField, sealer: idField, sealerKeyId: keyIdField });

const schemas = new WeakMap<DistributionKind, { record: z.ZodType<RecordV2>; signed: z.ZodType<{ record: RecordV2; signature: string }> }>();

function schemaOf(kind: DistributionKind) {
  let schema = schemas.get(kind);
  if (!schema) {
    const record = z.strictObject({
      type: z.literal(kind.recordType),
      v: z.literal(2),
      [kind.idField]: idField,
      epoch: countField,
      [kind.membersField]: membersSchema,
      keyCommitment: digestField,
      author: idField,
      authorKeyId: keyIdField,
      logHead: logHeadField,
    }) as unknown as z.ZodType<RecordV2>;
    schema = { record, signed: z.strictObject({ record, signature: signatureField }) };
    schemas.set(kind, schema);
  }
  return schema;
}

/** The kind's record read through the common names. */
export function viewOf(kind: DistributionKind, record: RecordV2): KeyRecordView {
  const fields = record as unknown as Record<string, unknown>;
  return {
    id: fields[kind.idField] as number,
    epoch: fields.epoch as number,
    members: fields[kind.membersField] as KeyRef[],
    keyCommitment: fields.keyCommitment as string,
    author: fields.author as number,
    authorKeyId: fields.authorKeyId as string,
    logHead: fields.logHead as LogHead,
  };
}

/** A record of the kind, checked for its exact shape (`code`: malformed_record from the server, invalid_input from a caller). */
export function parseKeyRecord<R extends RecordV2>(kind: DistributionKind, value: unknown, code: "malformed_record" | "invalid_input" = "invalid_input"): R {
  return parseRecord(schemaOf(kind).record, value, `${kind.recordType} record`, code) as R;
}

/** A signed record of the kind, checked for its exact shape only (malformed_record): what a server can check without keys. */
export function parseSignedKeyRecord<R extends RecordV2>(kind: DistributionKind, value: unknown): { record: R; signature: string } {
  return parseRecord(schemaOf(kind).signed, value, `${kind.recordType} record`) as { record: R; signature: string };
}

/** A signed copy, checked for its exact shape only (malformed_record). */
export function parseSignedSealedKey(value: unknown): SignedSealedKey {
  return parseRecord(signedSealedKeySchema, value, "sealed copy");
}

/**
 * The key commitment: HMAC-SHA-256 keyed with the raw 32-byte key over
 * "sealwork/v2/key-commitment\n" + the key's seal context, base64url. AES-GCM does not commit to
 * its key; this does, so one copy cannot open under two keys unnoticed. A WebCrypto key must be
 * extractable (the author's is, so it can be sealed); an opener commits from the raw bytes it
 * opened, before importing them.
 */
export async function commitKeyOf(kind: DistributionKind, key: Key | Uint8Array, id: number, epoch: number): Promise<string> {
  const raw = key instanceof Uint8Array ? key : await exportSymmetricKey(key);
  if (raw.length !== 32) throw new CryptoError("invalid_key", `a ${kind.kind} key has 32 bytes`);
  try {
    return base64urlEncode(await commitment(kind, raw, id, epoch));
  } finally {
    if (raw !== key) wipe(raw);
  }
}

function commitment(kind: DistributionKind, raw: Uint8Array, id: number, epoch: number): Promise<Bytes> {
  const context = kind.keyContext(id, checkId(epoch, "an epoch", 0));
  return hmacSha256(raw, utf8Encode(`sealwork/v2/key-commitment\n${context}`));
}

async function matchesCommitment(kind: DistributionKind, raw: Uint8Array, view: KeyRecordView): Promise<boolean> {
  return raw.length === 32 && equalBytes(await commitment(kind, raw, view.id, view.epoch), tryBase64urlDecode(view.keyCommitment)!);
}

/** The container id of a verified log of this kind (another kind's log: invalid_input). */
export function containerIdOf(kind: DistributionKind, log: VerifiedLog): number {
  const id = Number(log?.container?.split(":")[1]);
  if (log?.container !== membershipContainer(kind.kind, id)) throw new CryptoError("invalid_input", `not a ${kind.kind}'s log`);
  return id;
}

/**
 * The record for the log's current state, signed by its author: the members (with the keys their
 * copies are sealed for) must be the log's, the author one of its admins, no rekey pending.
 */
export async function createKeyRecord<R extends RecordV2>(kind: DistributionKind, key: Key, members: readonly KeyRef[], log: VerifiedLog, author: IdentityKeys): Promise<{ record: R; signature: string }> {
  const id = containerIdOf(kind, log);
  const sorted = [...(members ?? [])].sort((a, b) => a.userId - b.userId);
  if (sorted.map((p) => p.userId).join() !== log.members.map((m) => m.userId).join()) throw new CryptoError("invalid_input", `the ${kind.membersField} are not the log's members`);
  if (!log.admins.includes(author?.userId)) throw new CryptoError("not_permitted", `only an admin of the ${kind.kind} signs its record`);
  if (log.needsRekey) throw new CryptoError("invalid_input", "a member left or was removed: rekey before signing a record for this epoch");
  const record = parseKeyRecord<R>(kind, {
    type: kind.recordType,
    v: 2,
    [kind.idField]: id,
    epoch: log.epoch,
    [kind.membersField]: sorted,
    keyCommitment: await commitKeyOf(kind, key, id, log.epoch),
    author: author.userId,
    authorKeyId: author.keyId,
    logHead: log.head,
  });
  return { record, signature: await signRecordV2(author.keys.sign.privateKey, record) };
}

/**
 * Checks a record against the verified membership log (of this kind: invalid_input): signed by its author's verified key
 * (untrusted_key, bad_signature); naming a head of this log (log_fork); this container, the
 * epoch and the members of the log at that head (bad_chain: a ghost member); the author an admin
 * there (not_permitted). Answers the record and the log state at its head.
 */
export async function verifyKeyRecord<R extends RecordV2>(kind: DistributionKind, signed: unknown, log: VerifiedLog, keysOf: KeysOf): Promise<{ record: R; state: LogState }> {
  const id = containerIdOf(kind, log);
  const { record, signature } = parseSignedKeyRecord<R>(kind, signed);
  const view = viewOf(kind, record);
  const { verify } = await resolveSigner(keysOf, view.author, view.authorKeyId);
  await verifyRecordV2(verify, record, signature);
  const state = log.history[view.logHead.seq];
  if (!state || state.head.hash !== view.logHead.hash) throw new CryptoError("log_fork", "the record follows a log head this log does not have");
  if (view.id !== id) throw new CryptoError("bad_chain", `the record is another ${kind.kind}'s`);
  if (view.epoch !== state.epoch) throw new CryptoError("bad_chain", `the record is for epoch ${view.epoch}, the log was at ${state.epoch}`);
  if (view.members.map((p) => p.userId).join() !== state.members.map((m) => m.userId).join()) {
    throw new CryptoError("bad_chain", `the record's ${kind.membersField} are not the log's members`);
  }
  if (!state.admins.includes(view.author)) throw new CryptoError("not_permitted", `the record's author was not an admin of the ${kind.kind}`);
  return { record, state };
}

/** What a sealer signs for one copy of an epoch key; rebuilt by the opener from what it expects. */
function copyRecord(kind: DistributionKind, view: KeyRecordView, recipient: KeyRef, sealedDigest: string, sealer: KeyRef): RecordV2 {
  return {
    type: kind.copyType,
    v: 2,
    [kind.idField]: view.id,
    epoch: view.epoch,
    recipientUserId: recipient.userId,
    recipientKeyId: recipient.keyId,
    sealedDigest,
    sealer: sealer.userId,
    sealerKeyId: sealer.keyId,
  } as RecordV2;
}

/**
 * Seals the epoch key for one member (a key the record names) and signs the copy; the key must be
 * the committed one (bad_commitment) and the sealer one `maySeal` admits (not_permitted).
 */
export async function sealKeyCopy(
  kind: DistributionKind,
  key: Key,
  record: RecordV2,
  recipient: RecipientKey,
  sealer: IdentityKeys,
  maySeal: SealerCheck,
  fixed: SealRandomness | undefined,
): Promise<SignedSealedKey> {
  const view = viewOf(kind, parseKeyRecord(kind, record));
  if (!names(view, recipient)) throw new CryptoError("invalid_input", "the recipient's key is not the one the record names");
  if (!maySeal(sealer?.userId)) throw new CryptoError("not_permitted", `the sealer may not hand out this ${kind.kind}'s key`);
  const raw = await exportSymmetricKey(key);
  try {
    if (!(await matchesCommitment(kind, raw, view))) throw new CryptoError("bad_commitment", "this is not the key the record commits to");
    return await sealSigned(raw, recipient, kind.keyContext(view.id, view.epoch), (sealedDigest) => copyRecord(kind, view, recipient, sealedDigest, sealer), sealer, fixed);
  } finally {
    wipe(raw);
  }
}

/**
 * Opens one's copy of the key of a verified record: the record must name this key of the
 * recipient and the sealer be one `maySeal` admits (not_permitted); signed by the sealer's
 * verified key over the copy record rebuilt from what the opener expects (untrusted_key,
 * bad_signature); open (decrypt_failed); the committed key (bad_commitment).
 */
export async function openKeyCopy(
  kind: DistributionKind,
  copy: SignedSealedKey,
  record: RecordV2,
  recipient: IdentityKeys,
  keysOf: KeysOf,
  maySeal: SealerCheck,
  options: ExtractableOption,
): Promise<Key> {
  const parsed = parseSignedSealedKey(copy);
  const view = viewOf(kind, parseKeyRecord(kind, record));
  if (!names(view, recipient)) throw new CryptoError("not_permitted", `the ${kind.kind} record does not name this key of the recipient`);
  if (!maySeal(parsed.sealer)) throw new CryptoError("not_permitted", `the copy was sealed by someone who may not hand out this ${kind.kind}'s key`);
  const expected = (sealedDigest: string, sealer: KeyRef) => copyRecord(kind, view, recipient, sealedDigest, sealer);
  const raw = await openSigned(parsed, recipient, kind.keyContext(view.id, view.epoch), expected, keysOf);
  try {
    if (!(await matchesCommitment(kind, raw, view))) throw new CryptoError("bad_commitment", `the opened key is not the one the ${kind.kind} record commits to`);
    return await importSymmetricKey(raw, { extractable: options.extractable === true });
  } finally {
    wipe(raw);
  }
}

/**
 * Seals raw key bytes for a recipient's key under `context`, and signs the record that `signed`
 * builds around the envelope's digest: every signed copy (epoch keys, record-key grants) is made
 * here.
 */
export async function sealSigned(
  raw: Uint8Array,
  recipient: RecipientKey,
  context: string,
  signed: (sealedDigest: string) => RecordV2,
  sealer: IdentityKeys,
  fixed: SealRandomness | undefined,
): Promise<SignedSealedKey> {
  const publicKey = await importEncryptionPublicKey(recipient.encryptPublic);
  const sealed = serializeEnvelope(fixed ? await sealForWith(publicKey, raw, { context }, fixed) : await sealFor(publicKey, raw, { context }));
  return { sealed, signature: await signRecordV2(sealer.keys.sign.privateKey, signed(await digest(sealed))), sealer: sealer.userId, sealerKeyId: sealer.keyId };
}

/**
 * Verifies a signed copy against the record the opener expects (rebuilt by `expected` from the
 * envelope's digest and the named sealer, whose key comes from `keysOf`) and opens it under
 * `context`. Answers the raw bytes: the caller checks and wipes them.
 */
export async function openSigned(copy: SignedSealedKey, recipient: IdentityKeys, context: string, expected: (sealedDigest: string, sealer: KeyRef) => RecordV2, keysOf: KeysOf): Promise<Bytes> {
  const { sealed, signature, sealer, sealerKeyId } = parseSignedSealedKey(copy);
  const { verify } = await resolveSigner(keysOf, sealer, sealerKeyId);
  await verifyRecordV2(verify, expected(await digest(sealed), { userId: sealer, keyId: sealerKeyId }), signature);
  return openSealed(parseEnvelope(sealed, "sealed"), recipient.keys.encrypt, { context });
}

/** Encrypts the previous epoch's key (extractable) under the new epoch's key; answers the envelope's text. */
export async function sealChainLink(kind: DistributionKind, key: Key, previous: Key, id: number, epoch: number, nonce: Uint8Array | undefined): Promise<string> {
  const aad = kind.chainAad(id, epoch);
  const raw = await exportSymmetricKey(previous);
  try {
    return await encryptRecord(key, raw, aad, nonce);
  } finally {
    wipe(raw);
  }
}

/**
 * Opens the link of epoch `previous.epoch + 1` with that epoch's key and answers the key of the
 * epoch before it, which must match `previous` (the verified record of that earlier epoch): wrong
 * key, container or epoch: decrypt_failed; not 32 bytes or another key than the record commits
 * to: bad_commitment. Not extractable unless asked (to make the next link).
 */
export async function openChainLink(kind: DistributionKind, key: Key, link: string, previous: RecordV2, options: ExtractableOption): Promise<Key> {
  if (typeof previous !== "object" || previous === null) throw new CryptoError("invalid_input", `the previous epoch's ${kind.kind} record is missing`);
  const view = viewOf(kind, previous);
  const raw = await decrypt(key, parseEnvelope(link, "aead"), { aad: kind.chainAad(view.id, checkId(view.epoch, "an epoch", 0) + 1) });
  try {
    if (!(await matchesCommitment(kind, raw, view))) throw new CryptoError("bad_commitment", "the chained key is not the one the earlier record commits to");
    return await importSymmetricKey(raw, { extractable: options?.extractable === true });
  } finally {
    wipe(raw);
  }
}

function names(view: KeyRecordView, key: KeyRef | undefined): boolean {
  return view.members.some((p) => p.userId === key?.userId && p.keyId === key.keyId);
}

/** base64url(SHA-256(UTF-8(text))): how v2 records name an envelope. */
export async function digest(text: string): Promise<string> {
  if (typeof text !== "string") throw new CryptoError("invalid_input", "an envelope's text");
  return base64urlEncode(await sha256(utf8Encode(text)));
}
