import * as z from "zod";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { signRecordV2, verifyRecordV2 } from "../signatures";
import { digest } from "./distribution";
import { type IdentityKeys, type KeysOf, type VerifiedKey, resolveSigner } from "./identity-keys";
import { type GroupMessagePlace, type MessagePayload, type MessagePlaceV2, groupMessageAad, isGroupMessagePlace, messageAadV2, openMessage, sealMessageWith } from "./message";
import { keyIdField, parseRecord, signatureField } from "./v2-fields";

/**
 * Messages of a v2 conversation (docs/protocol.md, "Signed messages"): the v1 message record with
 * the epoch in its associated data, and the sender's signature over where it belongs and the
 * envelope's digest. The opener rebuilds the signed record from the message's stored place, so a
 * message moved, re-attributed or altered fails the signature. A pickup's guest (sender 0) has no
 * identity key and cannot sign: their messages use `sealMessage`/`openMessage` with a v2 place,
 * authenticated by the conversation key only. A group's own conversation signs the same way, with
 * its own record type and place (`group-message`, the group and its key's epoch).
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
}

/** A signed message as the server stores it. */
export interface SignedMessage {
  envelope: string;
  signature: string;
  senderKeyId: string;
}

const signedMessageSchema = z.strictObject({ envelope: z.string().min(1), signature: signatureField, senderKeyId: keyIdField });

/** Encrypts a message under the epoch's key and signs it with the sender's identity key. */
export function sealSignedMessage(key: Key, place: SignedMessagePlace, payload: MessagePayload, sender: IdentityKeys): Promise<SignedMessage> {
  return sealSignedMessageWith(key, place, payload, sender, undefined);
}

/** sealSignedMessage with the nonce supplied: for known-answer tests only. */
export async function sealSignedMessageWith(key: Key, place: SignedMessagePlace, payload: MessagePayload, sender: IdentityKeys, nonce: Uint8Array | undefined): Promise<SignedMessage> {
  checkV2(place);
  if (sender?.userId !== place.senderId) throw new CryptoError("invalid_input", "a message is signed by its sender");
  const envelope = await sealMessageWith(key, place, payload, nonce);
  const record = await signatureRecord(place, sender.keyId, envelope);
  return { envelope, signature: await signRecordV2(sender.keys.sign.privateKey, record), senderKeyId: sender.keyId };
}

/**
 * Checks a message's signature by its sender's verified key (untrusted_key when the lookup does
 * not know it, bad_signature when it does not cover this place and envelope). Answers that key.
 */
export async function verifyMessageSignature(message: SignedMessage, place: SignedMessagePlace, keysOf: KeysOf): Promise<VerifiedKey> {
  checkV2(place);
  const { envelope, signature, senderKeyId } = parseRecord(signedMessageSchema, message, "signed message");
  const { key, verify } = await resolveSigner(keysOf, place.senderId, senderKeyId);
  await verifyRecordV2(verify, await signatureRecord(place, senderKeyId, envelope), signature);
  return key;
}

/** Verifies the signature, then opens the message (the errors of both). */
export async function openSignedMessage(key: Key, message: SignedMessage, place: SignedMessagePlace, keysOf: KeysOf): Promise<MessagePayload> {
  await verifyMessageSignature(message, place, keysOf);
  return openMessage(key, message.envelope, place);
}

async function signatureRecord(place: SignedMessagePlace, senderKeyId: string, envelope: string): Promise<MessageSignatureRecord | GroupMessageSignatureRecord> {
  // The associated data checks every part of the place (ids, epoch, local id) the same way.
  if (isGroupMessagePlace(place)) {
    groupMessageAad(place.groupId, place.epoch, place.senderId, place.localid);
    const { groupId, epoch, senderId, localid } = place;
    return { type: "group-message", v: 2, groupId, epoch, senderId, senderKeyId, localid, envelopeDigest: await digest(envelope) };
  }
  messageAadV2(place.conversationId, place.epoch, place.senderId, place.localid);
  const { conversationId, epoch, senderId, localid } = place;
  return { type: "message", v: 2, conversationId, epoch, senderId, senderKeyId, localid, envelopeDigest: await digest(envelope) };
}

function checkV2(place: SignedMessagePlace): void {
  if (place?.v !== 2) throw new CryptoError("invalid_input", "a signed message has a v2 place");
  if (place.senderId === 0) throw new CryptoError("invalid_input", "a pickup's guest has no identity key to sign with");
}

/** A signed message, checked for its exact shape only (malformed_record): what a server can check without keys. */
export function parseSignedMessage(value: unknown): SignedMessage {
  return parseRecord(signedMessageSchema, value, "signed message");
}
