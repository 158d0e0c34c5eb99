import * as z from "zod";
import { exportSymmetricKey, importSymmetricKey } from "../aead";
import { importEncryptionPublicKey } from "../account-keys";
import { base64urlEncode, equalBytes, tryBase64urlDecode, utf8Encode, wipe } from "../bytes";
import { parseEnvelope, serializeEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import { type Key, hmacSha256, sha256 } from "../primitives";
import { openSealed, sealFor, sealForWith } from "../seal";
import { signRecordV2, verifyRecordV2 } from "../signatures";
import { type SealRandomness, conversationKeyContext } from "./conversation-key";
import { type IdentityKeys, type KeysOf, type VerifiedKey, resolveSigner } from "./identity-keys";
import { type LogHead, type VerifiedLog, membershipContainer } from "./membership-log";
import { checkId } from "./place";
import { type KeyRef, countField, digestField, idField, keyIdField, keyRefField, parseRecord, signatureField } from "./v2-fields";

/**
 * A v2 conversation's key distribution (docs/protocol.md, "Signed distribution"): the conversation
 * record its author signs (participants, their key ids, a commitment to the key, the log head it
 * follows), and each sealed copy of the key signed by its sealer. An opener takes a key only from
 * a participant's signed copy, and only when it matches the commitment, so neither the server
 * nor a participant can hand some people a different key.
 */

/** A conversation and the epoch of its key (v2 always names the epoch). */
export interface ConversationEpoch {
  conversationId: number;
  epoch: number;
}

export interface ConversationRecord {
  type: "conversation";
  v: 2;
  conversationId: number;
  epoch: number;
  /** Sorted by user id: each participant and the key their copy is sealed for. */
  participants: KeyRef[];
  /** commitKey(the conversation key, { conversationId, epoch }). */
  keyCommitment: string;
  author: number;
  authorKeyId: string;
  /** The membership log's head this record follows. */
  logHead: LogHead;
}

export interface SignedConversation {
  record: ConversationRecord;
  signature: string;
}

/** What a sealer signs for one copy; rebuilt by the opener from what it expects, never taken from the server. */
export interface SealedKeyRecord {
  type: "sealed-key";
  v: 2;
  conversationId: number;
  epoch: number;
  recipientUserId: number;
  recipientKeyId: string;
  /** base64url(SHA-256(UTF-8(the sealed envelope's text))). */
  sealedDigest: string;
  sealer: number;
  sealerKeyId: string;
}

/** One participant's copy of the key as the server stores it. */
export interface SignedSealedKey {
  /** The `sealed` envelope's text (context `conversation-key:<id>:<epoch>`). */
  sealed: string;
  signature: string;
  sealer: number;
  sealerKeyId: string;
}

const MAX_PARTICIPANTS = 10_000;

const conversationRecordSchema = z.strictObject({
  type: z.literal("conversation"),
  v: z.literal(2),
  conversationId: idField,
  epoch: countField,
  participants: z
    .array(keyRefField)
    .min(1)
    .max(MAX_PARTICIPANTS)
    .refine((list) => list.every((p, i) => i === 0 || list[i - 1]!.userId < p.userId), "participants sorted by user id, each once"),
  keyCommitment: digestField,
  author: idField,
  authorKeyId: keyIdField,
  logHead: z.strictObject({ seq: countField, hash: digestField }),
});

const signedConversationSchema = z.strictObject({ record: conversationRecordSchema, signature: signatureField });

const signedSealedKeySchema = z.strictObject({ sealed: z.string().min(1).max(4096), signature: signatureField, sealer: idField, sealerKeyId: keyIdField });

/**
 * The key commitment: HMAC-SHA-256 keyed with the raw 32-byte key over
 * "sealwork/v2/key-commitment\n" + `conversation-key:<id>:<epoch>`, base64url. AES-GCM does not
 * commit to its key; this does (a fixed-length key, a collision-resistant hash), so one copy
 * cannot open under two keys unnoticed. WebCrypto cannot run HMAC under an AES key, so the raw
 * bytes are needed once: a key given as a WebCrypto key must be extractable (the author's is, so
 * it can be sealed); an opener commits from the raw bytes it opened, before importing them.
 */
export async function commitKey(key: Key | Uint8Array, place: ConversationEpoch): Promise<string> {
  const raw = key instanceof Uint8Array ? key : await exportSymmetricKey(key);
  if (raw.length !== 32) throw new CryptoError("invalid_key", "a conversation key has 32 bytes");
  try {
    return base64urlEncode(await commitment(raw, place));
  } finally {
    if (raw !== key) wipe(raw);
  }
}

async function commitment(raw: Uint8Array, place: ConversationEpoch): Promise<Uint8Array> {
  const context = conversationKeyContext(place?.conversationId, checkId(place?.epoch, "an epoch", 0));
  return hmacSha256(raw, utf8Encode(`sealwork/v2/key-commitment\n${context}`));
}

/**
 * The author's record for the log's current state: participants (with the keys their copies are
 * sealed for) must be the log's members, the author one of its admins, and no rekey pending.
 */
export async function createConversationRecord(key: Key, participants: readonly KeyRef[], log: VerifiedLog, author: IdentityKeys): Promise<SignedConversation> {
  const conversationId = conversationOf(log);
  const sorted = [...(participants ?? [])].sort((a, b) => a.userId - b.userId);
  if (sorted.map((p) => p.userId).join() !== log.members.map((m) => m.userId).join()) throw new CryptoError("invalid_input", "the participants are not the log's members");
  if (!log.admins.includes(author?.userId)) throw new CryptoError("not_permitted", "only an admin of the conversation signs its record");
  if (log.needsRekey) throw new CryptoError("invalid_input", "a member left or was removed: rekey before signing a record for this epoch");
  const record = parseRecord(
    conversationRecordSchema,
    {
      type: "conversation",
      v: 2,
      conversationId,
      epoch: log.epoch,
      participants: sorted,
      keyCommitment: await commitKey(key, { conversationId, epoch: log.epoch }),
      author: author.userId,
      authorKeyId: author.keyId,
      logHead: log.head,
    },
    "conversation record",
    "invalid_input",
  );
  return { record, signature: await signRecordV2(author.keys.sign.privateKey, record) };
}

/**
 * Checks a conversation record against the verified membership log: signed by its author's
 * verified key (untrusted_key, bad_signature); naming a head of this log (log_fork); this
 * conversation, the epoch and the members of the log at that head (bad_chain); the author an admin
 * there (not_permitted). Answers the record (for its commitment and participants).
 */
export async function verifyConversationRecord(signed: SignedConversation, log: VerifiedLog, keysOf: KeysOf): Promise<ConversationRecord> {
  const { record, signature } = parseRecord(signedConversationSchema, signed, "conversation record");
  const { verify } = await resolveSigner(keysOf, record.author, record.authorKeyId);
  await verifyRecordV2(verify, record, signature);
  const state = log.history[record.logHead.seq];
  if (!state || state.head.hash !== record.logHead.hash) throw new CryptoError("log_fork", "the record follows a log head this log does not have");
  if (record.conversationId !== conversationOf(log)) throw new CryptoError("bad_chain", "the record is another conversation's");
  if (record.epoch !== state.epoch) throw new CryptoError("bad_chain", `the record is for epoch ${record.epoch}, the log was at ${state.epoch}`);
  if (record.participants.map((p) => p.userId).join() !== state.members.map((m) => m.userId).join()) {
    throw new CryptoError("bad_chain", "the record's participants are not the log's members");
  }
  if (!state.admins.includes(record.author)) throw new CryptoError("not_permitted", "the record's author was not an admin of the conversation");
  return record;
}

/** Seals the key for one participant (a verified key the record names) and signs the copy. */
export function sealSignedConversationKey(key: Key, conversation: ConversationRecord, recipient: VerifiedKey, sealer: IdentityKeys): Promise<SignedSealedKey> {
  return sealSignedConversationKeyWith(key, conversation, recipient, sealer, undefined);
}

/** sealSignedConversationKey with the randomness supplied: for known-answer tests only. */
export async function sealSignedConversationKeyWith(
  key: Key,
  conversation: ConversationRecord,
  recipient: VerifiedKey,
  sealer: IdentityKeys,
  fixed: SealRandomness | undefined,
): Promise<SignedSealedKey> {
  const record = parseRecord(conversationRecordSchema, conversation, "conversation record", "invalid_input");
  if (!names(record, recipient)) throw new CryptoError("invalid_input", "the recipient's key is not the one the record names");
  if (!record.participants.some((p) => p.userId === sealer?.userId)) throw new CryptoError("not_permitted", "the sealer is not a participant");
  const place = { conversationId: record.conversationId, epoch: record.epoch };
  const raw = await exportSymmetricKey(key);
  try {
    if (!equalBytes(await commitment(raw, place), tryBase64urlDecode(record.keyCommitment)!)) {
      throw new CryptoError("bad_commitment", "this is not the key the record commits to");
    }
    const options = { context: conversationKeyContext(place.conversationId, place.epoch) };
    const publicKey = await importEncryptionPublicKey(recipient.encryptPublic);
    const sealed = serializeEnvelope(fixed ? await sealForWith(publicKey, raw, options, fixed) : await sealFor(publicKey, raw, options));
    const signed = sealedKeyRecord(place, recipient, await digest(sealed), sealer);
    return { sealed, signature: await signRecordV2(sealer.keys.sign.privateKey, signed), sealer: sealer.userId, sealerKeyId: sealer.keyId };
  } finally {
    wipe(raw);
  }
}

/**
 * Opens one's copy of the key of a verified conversation record: the copy must be for this
 * conversation, epoch and key of the recipient, signed by a participant's verified key
 * (not_permitted, untrusted_key, bad_signature over the record rebuilt from what the opener
 * expects), open (decrypt_failed), and match the record's commitment (bad_commitment).
 */
export async function openSignedConversationKey(copy: SignedSealedKey, conversation: ConversationRecord, recipient: IdentityKeys, keysOf: KeysOf): Promise<Key> {
  const { sealed, signature, sealer, sealerKeyId } = parseRecord(signedSealedKeySchema, copy, "sealed copy");
  const record = parseRecord(conversationRecordSchema, conversation, "conversation record", "invalid_input");
  if (!names(record, recipient)) throw new CryptoError("not_permitted", "the conversation record does not name this key of the recipient");
  if (!record.participants.some((p) => p.userId === sealer)) throw new CryptoError("not_permitted", "the copy was sealed by someone who is not a participant");
  const { verify } = await resolveSigner(keysOf, sealer, sealerKeyId);
  const place = { conversationId: record.conversationId, epoch: record.epoch };
  await verifyRecordV2(verify, sealedKeyRecord(place, recipient, await digest(sealed), { userId: sealer, keyId: sealerKeyId }), signature);
  const raw = await openSealed(parseEnvelope(sealed, "sealed"), recipient.keys.encrypt, { context: conversationKeyContext(place.conversationId, place.epoch) });
  try {
    if (raw.length !== 32 || !equalBytes(await commitment(raw, place), tryBase64urlDecode(record.keyCommitment)!)) {
      throw new CryptoError("bad_commitment", "the opened key is not the one the conversation record commits to");
    }
    return await importSymmetricKey(raw);
  } finally {
    wipe(raw);
  }
}

function sealedKeyRecord(place: ConversationEpoch, recipient: KeyRef, sealedDigest: string, sealer: KeyRef): SealedKeyRecord {
  return {
    type: "sealed-key",
    v: 2,
    conversationId: place.conversationId,
    epoch: place.epoch,
    recipientUserId: recipient.userId,
    recipientKeyId: recipient.keyId,
    sealedDigest,
    sealer: sealer.userId,
    sealerKeyId: sealer.keyId,
  };
}

function names(record: ConversationRecord, key: KeyRef | undefined): boolean {
  return record.participants.some((p) => p.userId === key?.userId && p.keyId === key.keyId);
}

function conversationOf(log: VerifiedLog): number {
  const id = Number(log?.container?.split(":")[1]);
  if (log?.container !== membershipContainer("conversation", id)) throw new CryptoError("invalid_input", "not a conversation's log");
  return id;
}

/** base64url(SHA-256(UTF-8(text))): how v2 records name an envelope. */
export async function digest(text: string): Promise<string> {
  if (typeof text !== "string") throw new CryptoError("invalid_input", "an envelope's text");
  return base64urlEncode(await sha256(utf8Encode(text)));
}

/** A signed conversation record, checked for its exact shape only (malformed_record): what a server can check without keys. */
export function parseSignedConversation(value: unknown): SignedConversation {
  return parseRecord(signedConversationSchema, value, "conversation record");
}

/** A signed key copy, checked for its exact shape only (malformed_record). */
export function parseSignedSealedKey(value: unknown): SignedSealedKey {
  return parseRecord(signedSealedKeySchema, value, "sealed copy");
}
