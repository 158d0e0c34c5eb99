import * as z from "zod";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { signRecordV2, verifyRecordV2 } from "../signatures";
import { digest } from "./distribution";
import { type IdentityKeys, type KeysOf, type VerifiedKey, resolveSigner } from "./identity-keys";
import { type LogHead, type VerifiedLog, findHead } from "./membership-log";
import { type GroupMessagePlace, type MessagePayload, type MessagePlaceV2, groupMessageAad, isGroupMessagePlace, messageAadV2, openMessage, sealMessageWith } from "./message";
import { keyIdField, logHeadField, parseRecord, signatureField } from "./v2-fields";

/**
 * Messages of a v2 conversation (docs/protocol.md, "Signed messages"): the v1 message record with
 * the epoch in its associated data, and the sender's signature over where it belongs and the
 * envelope's digest. The opener rebuilds the signed record from the message's stored place, so a
 * message moved, re-attributed or altered fails the signature. A pickup's guest (sender 0) has no
 * identity key and cannot sign: their messages use `sealMessage`/`openMessage` with a v2 place,
 * authenticated by the conversation key only. A group's own conversation signs the same way, with
 * its own record type and place (`group-message`, the group and its key's epoch).
 *
 * A message may name, inside what its sender signs, the head of the membership log the sender
 * had verified when sending (`logHead`): a reader checks it against its own verified log
 * (checkMessageHead), so that a server showing two members two histories is caught as soon as
 * one reads a message of the other. The field is optional: a record without it is the one signed
 * before heads were exchanged, byte for byte, and still verifies; one that had it does not verify
 * without it, so the server cannot strip it.
 */

/** Where a signed message belongs: a v2 conversation's epoch, or a group's. */
export type SignedMessagePlace = MessagePlaceV2 | GroupMessagePlace;

/** What the sender signs; never taken from the server. */
export interface MessageSignatureRecord {
  type: "message";
  v: 2;
  conversationId: number;
  epoch: number;
  senderId: number;
  senderKeyId: string;
  localid: string;
  /** base64url(SHA-256(UTF-8(the envelope's text))). */
  envelopeDigest: string;
  /** The head of the conversation's log the sender had verified; absent in messages signed before heads were exchanged. */
  logHead?: LogHead;
}

/** What the sender of a group message signs. */
export interface GroupMessageSignatureRecord {
  type: "group-message";
  v: 2;
  groupId: number;
  epoch: number;
  senderId: number;
  senderKeyId: string;
  localid: string;
  envelopeDigest: string;
  /** The head of the group's log the sender had verified (as for conversations). */
  logHead?: LogHead;
}

/** A signed message as the server stores it. */
export interface SignedMessage {
  envelope: string;
  signature: string;
  senderKeyId: string;
  /** The signed log head (stored beside the message, as the server must serve it for the signature to verify). */
  logHead?: LogHead;
}

const signedMessageSchema = z.strictObject({ envelope: z.string().min(1), signature: signatureField, senderKeyId: keyIdField, logHead: logHeadField.optional() });

/**
 * Encrypts a message under the epoch's key and signs it with the sender's identity key, with the
 * head of the log the sender verified (`logHead`; its state must be of the message's epoch).
 */
export function sealSignedMessage(key: Key, place: SignedMessagePlace, payload: MessagePayload, sender: IdentityKeys, logHead?: LogHead): Promise<SignedMessage> {
  return sealSignedMessageWith(key, place, payload, sender, undefined, logHead);
}

/** sealSignedMessage with the nonce supplied: for known-answer tests only. */
export async function sealSignedMessageWith(
  key: Key,
  place: SignedMessagePlace,
  payload: MessagePayload,
  sender: IdentityKeys,
  nonce: Uint8Array | undefined,
  logHead?: LogHead,
): Promise<SignedMessage> {
  checkV2(place);
  if (sender?.userId !== place.senderId) throw new CryptoError("invalid_input", "a message is signed by its sender");
  const head = logHead === undefined ? undefined : parseRecord(logHeadField, logHead, "log head", "invalid_input");
  const envelope = await sealMessageWith(key, place, payload, nonce);
  const record = await signatureRecord(place, sender.keyId, envelope, head);
  const signed = { envelope, signature: await signRecordV2(sender.keys.sign.privateKey, record), senderKeyId: sender.keyId };
  return head ? { ...signed, logHead: head } : signed;
}

/**
 * Checks a message's signature by its sender's verified key (untrusted_key when the lookup does
 * not know it, bad_signature when it does not cover this place and envelope). Answers that key.
 */
export async function verifyMessageSignature(message: SignedMessage, place: SignedMessagePlace, keysOf: KeysOf): Promise<VerifiedKey> {
  checkV2(place);
  const { envelope, signature, senderKeyId, logHead } = parseRecord(signedMessageSchema, message, "signed message");
  const { key, verify } = await resolveSigner(keysOf, place.senderId, senderKeyId);
  await verifyRecordV2(verify, await signatureRecord(place, senderKeyId, envelope, logHead), signature);
  return key;
}

/**
 * The log head a message names, checked against the reader's verified log of the message's
 * container (call it after verifyMessageSignature, which shows the sender signed the head): the
 * same seq must carry the same hash (else log_fork: the sender and the reader were shown different
 * histories). A head beyond the log's end makes it ask `newer` for the log as the server serves it
 * now (which must continue this one: verified against its head) and look there; still beyond is
 * log_fork too (the server withholds from the reader what it showed the sender). A head whose
 * state is of another epoch than the message's is bad_chain (no sender signs so). A message
 * without a head (signed before heads were exchanged) passes. Answers the log the head was
 * found in: `log`, or the newer one.
 */
export async function checkMessageHead(
  message: SignedMessage,
  place: SignedMessagePlace,
  log: VerifiedLog,
  newer?: (log: VerifiedLog) => Promise<VerifiedLog>,
): Promise<VerifiedLog> {
  const { logHead } = parseRecord(signedMessageSchema, message, "signed message");
  if (!logHead) return log;
  let state = findHead(log, logHead);
  if (!state && newer) {
    const later = await newer(log);
    // The newer log must hold this one's head: else the reader was shown another history before, or now an older one.
    if (!findHead(later, log.head)) throw new CryptoError("log_fork", `the log served again ends at ${later.head.seq}, before ${log.head.seq}: a rollback`);
    log = later;
    state = findHead(log, logHead);
  }
  if (!state) throw new CryptoError("log_fork", `the message names entry ${logHead.seq} of a log that ends at ${log.head.seq}: its sender was shown another history`);
  if (state.epoch !== place.epoch) throw new CryptoError("bad_chain", `the message of epoch ${place.epoch} names a head of epoch ${state.epoch}`);
  return log;
}

/** Verifies the signature, then opens the message (the errors of both). */
export async function openSignedMessage(key: Key, message: SignedMessage, place: SignedMessagePlace, keysOf: KeysOf): Promise<MessagePayload> {
  await verifyMessageSignature(message, place, keysOf);
  return openMessage(key, message.envelope, place);
}

async function signatureRecord(
  place: SignedMessagePlace,
  senderKeyId: string,
  envelope: string,
  logHead: LogHead | undefined,
): Promise<MessageSignatureRecord | GroupMessageSignatureRecord> {
  // Without a head the record is the one signed before heads were exchanged, field for field.
  const head = logHead ? { logHead: { seq: logHead.seq, hash: logHead.hash } } : {};
  // The associated data checks every part of the place (ids, epoch, local id) the same way.
  if (isGroupMessagePlace(place)) {
    groupMessageAad(place.groupId, place.epoch, place.senderId, place.localid);
    const { groupId, epoch, senderId, localid } = place;
    return { type: "group-message", v: 2, groupId, epoch, senderId, senderKeyId, localid, envelopeDigest: await digest(envelope), ...head };
  }
  messageAadV2(place.conversationId, place.epoch, place.senderId, place.localid);
  const { conversationId, epoch, senderId, localid } = place;
  return { type: "message", v: 2, conversationId, epoch, senderId, senderKeyId, localid, envelopeDigest: await digest(envelope), ...head };
}

function checkV2(place: SignedMessagePlace): void {
  if (place?.v !== 2) throw new CryptoError("invalid_input", "a signed message has a v2 place");
  if (place.senderId === 0) throw new CryptoError("invalid_input", "a pickup's guest has no identity key to sign with");
}

/** A signed message, checked for its exact shape only (malformed_record): what a server can check without keys. */
export function parseSignedMessage(value: unknown): SignedMessage {
  return parseRecord(signedMessageSchema, value, "signed message");
}
