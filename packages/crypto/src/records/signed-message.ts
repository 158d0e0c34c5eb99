import * as z from "zod";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { base64urlEncode, utf8Encode } from "../bytes";
import { canonicalJson } from "../canonical-json";
import { sha256 } from "../primitives";
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

/**
 * What a sender's next message names as this one (`prev` in its payload): the digest of the record
 * the sender signed for it (place, sender key, envelope digest, log head), under its own domain.
 * Malformed messages: malformed_record; a place that is not a signed message's: invalid_input.
 */
export async function signedMessageDigest(message: SignedMessage, place: SignedMessagePlace): Promise<string> {
  checkV2(place);
  const { envelope, senderKeyId, logHead } = parseRecord(signedMessageSchema, message, "signed message");
  return recordDigest(await signatureRecord(place, senderKeyId, envelope, logHead));
}

const MESSAGE_DIGEST_DOMAIN = "sealwork/v2/message-digest\n";

async function recordDigest(record: MessageSignatureRecord | GroupMessageSignatureRecord): Promise<string> {
  return base64urlEncode(await sha256(utf8Encode(MESSAGE_DIGEST_DOMAIN + canonicalJson(record))));
}

/**
 * The digests that authenticated messages named as their senders' previous ones, per sender: what
 * makes an older message authentic without checking its own signature (openSignedMessages). Keep
 * one per container and reader, for as long as the keys and identities it was built with hold.
 */
export class MessageVouchers {
  readonly #digests = new Set<string>();
  add(senderId: number, digest: string): void {
    this.#digests.add(`${senderId}:${digest}`);
  }
  has(senderId: number, digest: string): boolean {
    return this.#digests.has(`${senderId}:${digest}`);
  }
}

/** One message to open: where it belongs and the key of its epoch. */
export interface SignedMessageToOpen {
  message: SignedMessage;
  place: SignedMessagePlace;
  key: Key;
}

/** A message opened by openSignedMessages: its payload, the sender's verified key, and how it was authenticated. */
export type OpenedSignedMessage =
  | { ok: true; payload: MessagePayload; key: VerifiedKey; digest: string; by: "signature" | "vouched" }
  | { ok: false; error: CryptoError };

/**
 * Opens the messages of a page, newest first, as openSignedMessage opens each, but checks a
 * signature only where it must (docs/protocol.md, "Messages vouched for by the next one"): a
 * message whose digest an authentic later message of the same sender names as its `prev` (in this
 * batch, or in `vouchers` from newer batches) is as authentic as that one's signature makes it.
 * Every message is still decrypted under its place, its sender's key id must be a verified key of
 * its sender (untrusted_key), and a message vouched for only by one that fails is checked by its
 * own signature. The `prev` of every authentic message goes into `vouchers` for older batches.
 * Answers each message's result, in the order given; errors other than CryptoError propagate.
 */
export async function openSignedMessages(items: readonly SignedMessageToOpen[], keysOf: KeysOf, vouchers: MessageVouchers): Promise<OpenedSignedMessage[]> {
  interface Prepared {
    record: MessageSignatureRecord | GroupMessageSignatureRecord;
    signature: string;
    verify: Key;
    key: VerifiedKey;
    digest: string;
    payload: MessagePayload;
  }
  const failed = (error: unknown): OpenedSignedMessage => {
    if (error instanceof CryptoError) return { ok: false, error };
    throw error;
  };
  const prepared = await Promise.all(
    items.map(async ({ message, place, key: messageKey }): Promise<Prepared | OpenedSignedMessage> => {
      try {
        checkV2(place);
        const { envelope, signature, senderKeyId, logHead } = parseRecord(signedMessageSchema, message, "signed message");
        const { key, verify } = await resolveSigner(keysOf, place.senderId, senderKeyId);
        const record = await signatureRecord(place, senderKeyId, envelope, logHead);
        // Decrypted before it is known to be authentic: nothing of it is answered unless it is.
        const [digest, payload] = await Promise.all([recordDigest(record), openMessage(messageKey, envelope, place)]);
        return { record, signature, verify, key, digest, payload };
      } catch (error) {
        return failed(error);
      }
    }),
  );
  const ready = (p: Prepared | OpenedSignedMessage): p is Prepared => !("ok" in p);

  // Newest first: each message is vouched for by a later one of its sender (its `prev`), or checked by its signature.
  const voucherOf = new Map<number, number>();
  const namedBy = new Map<string, number>();
  for (const [index, p] of prepared.entries()) {
    if (!ready(p)) continue;
    const sender = items[index]!.place.senderId;
    const voucher = namedBy.get(`${sender}:${p.digest}`);
    if (voucher !== undefined) voucherOf.set(index, voucher);
    if (p.payload.prev !== undefined && !namedBy.has(`${sender}:${p.payload.prev}`)) namedBy.set(`${sender}:${p.payload.prev}`, index);
  }
  // null when the signature verifies, else why not.
  const signatureError = (p: Prepared) => verifyRecordV2(p.verify, p.record, p.signature).then(() => null, (error: unknown) => (failed(error), error as CryptoError));
  const mustSign = prepared.map((p, index) => ready(p) && !vouchers.has(items[index]!.place.senderId, p.digest) && !voucherOf.has(index));
  const signed = await Promise.all(prepared.map((p, index) => (mustSign[index] && ready(p) ? signatureError(p) : null)));

  const results: OpenedSignedMessage[] = [];
  for (const [index, p] of prepared.entries()) {
    if (!ready(p)) {
      results.push(p);
      continue;
    }
    const sender = items[index]!.place.senderId;
    let by: "signature" | "vouched" = "vouched";
    let refused: CryptoError | null = null;
    if (mustSign[index]) {
      by = "signature";
      refused = signed[index]!;
    } else if (!vouchers.has(sender, p.digest) && !results[voucherOf.get(index)!]!.ok) {
      // Vouched for in this batch by a newer message that is not authentic: checked by its own signature.
      by = "signature";
      refused = await signatureError(p);
    }
    if (refused) {
      results.push({ ok: false, error: refused });
      continue;
    }
    if (p.payload.prev !== undefined) vouchers.add(sender, p.payload.prev);
    results.push({ ok: true, payload: p.payload, key: p.key, digest: p.digest, by });
  }
  return results;
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
