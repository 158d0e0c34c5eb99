import * as z from "zod";
import { decrypt } from "../aead";
import { utf8Decode, utf8Encode } from "../bytes";
import { type AeadEnvelope, parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { type FileRef, fileRefSchema } from "./file-ref";
import { checkId, checkLocalid, checkPlace, conversationSuffix, encryptRecord } from "./place";
import { digestField } from "./v2-fields";

/**
 * A message (docs/protocol.md, Conversations): the JSON `{ text?, files? }` under the conversation
 * key with the associated data `message:<conversationId>:<senderId>:<localid>`, so the server
 * cannot move a message to another conversation, attribute it to someone else or replay it as
 * another message of the same sender. The opener takes the three from the stored message.
 */

export interface MessagePayload {
  text?: string;
  /**
   * As sealed, every entry passed `fileRefSchema`. As opened, entries are objects but otherwise
   * unchecked (another participant's client wrote them): check each with `parseFileRef` before
   * use, so one bad attachment shows as invalid without hiding the message.
   */
  files?: FileRef[];
  /**
   * Signed messages only: the digest of the sender's previous message in the same container
   * (signedMessageDigest), which this message's signature then vouches for (docs/protocol.md,
   * "Messages vouched for by the next one"). As opened, a value that is not a digest is dropped.
   */
  prev?: string;
}

/** Who sent which message where. The guest of a pickup is sender 0. */
export interface MessagePlace {
  /** Protocol v1 (the default): the associated data names no epoch. */
  v?: 1;
  conversationId: number;
  senderId: number;
  localid: string;
}

/**
 * A message of a v2 conversation: the associated data names the epoch of the key as well
 * (docs/protocol.md, "Signed messages"). The `v` is explicit, so a v1 message never opens as v2.
 */
export interface MessagePlaceV2 {
  v: 2;
  conversationId: number;
  epoch: number;
  senderId: number;
  localid: string;
}

/**
 * A message of a group's own conversation (docs/protocol.md, "Group messages"): sealed under the
 * group key's epoch, always signed by its sender (a group has no guests). The associated data
 * `group-message:<groupId>:<epoch>:<senderId>:<localid>` has its own kind, so a group message
 * never opens as a conversation's (and the reverse) even where the ids agree.
 */
export interface GroupMessagePlace {
  v: 2;
  groupId: number;
  epoch: number;
  senderId: number;
  localid: string;
}

/** Any place a message may be sealed for. */
export type AnyMessagePlace = MessagePlace | MessagePlaceV2 | GroupMessagePlace;

/** What a sealer may seal: the fields in this order, every file reference valid. */
export const messagePayloadSchema = z.object({
  text: z.string().optional(),
  files: z.array(fileRefSchema).optional(),
  prev: digestField.optional(),
});

/** What an opener accepts: an object with `text` a string and `files` an array of objects, when present. */
const openedPayloadSchema = z.object({
  text: z.string().optional(),
  files: z.array(z.looseObject({})).optional(),
  prev: digestField.optional().catch(undefined),
});

export function messageAad(conversationId: number, senderId: number, localid: string): string {
  return `message:${checkId(conversationId, "a conversation id")}:${checkId(senderId, "a sender id", 0)}:${checkLocalid(localid)}`;
}

/** v2: `message:<conversationId>:<epoch>:<senderId>:<localid>` (four parts after the kind, v1 has three). */
export function messageAadV2(conversationId: number, epoch: number, senderId: number, localid: string): string {
  return `message:${conversationSuffix(conversationId, checkId(epoch, "an epoch", 0))}:${checkId(senderId, "a sender id", 0)}:${checkLocalid(localid)}`;
}

/** `group-message:<groupId>:<epoch>:<senderId>:<localid>`; a group's members all sign, so its sender is never 0. */
export function groupMessageAad(groupId: number, epoch: number, senderId: number, localid: string): string {
  return `group-message:${checkId(groupId, "a group id")}:${checkId(epoch, "an epoch", 0)}:${checkId(senderId, "a sender id")}:${checkLocalid(localid)}`;
}

export const isGroupMessagePlace = (place: AnyMessagePlace): place is GroupMessagePlace => "groupId" in place;

function aadOf(place: AnyMessagePlace): string {
  const checked = checkPlace(place, "the message's place");
  if (isGroupMessagePlace(checked)) {
    if (checked.v !== 2 || "conversationId" in checked) throw new CryptoError("invalid_input", "a group message place is v 2 and names no conversation");
    return groupMessageAad(checked.groupId, checked.epoch, checked.senderId, checked.localid);
  }
  if (checked.v === 2) return messageAadV2(checked.conversationId, checked.epoch, checked.senderId, checked.localid);
  if (checked.v !== undefined && checked.v !== 1) throw new CryptoError("invalid_input", "a message place is v 1 or v 2");
  return messageAad(checked.conversationId, checked.senderId, checked.localid);
}

/** Encrypts a message payload; answers the envelope's text. A payload outside the schema: invalid_input. */
export function sealMessage(conversationKey: Key, place: AnyMessagePlace, payload: MessagePayload): Promise<string> {
  return sealMessageWith(conversationKey, place, payload, undefined);
}

/** sealMessage with the nonce supplied: for known-answer tests only. */
export async function sealMessageWith(conversationKey: Key, place: AnyMessagePlace, payload: MessagePayload, nonce: Uint8Array | undefined): Promise<string> {
  const aad = aadOf(place);
  const parsed = messagePayloadSchema.safeParse(payload);
  if (!parsed.success) throw new CryptoError("invalid_input", "not a message payload");
  // Written from the parsed value, so the bytes do not depend on the caller's key order.
  return encryptRecord(conversationKey, utf8Encode(JSON.stringify(parsed.data)), aad, nonce);
}

/**
 * Opens a stored message. Wrong key, conversation, sender or local id, or any change:
 * decrypt_failed; opens but is not a message payload: invalid_payload (spec 000 §8 'Invalid
 * mote payload' either way). Fields other than `text`, `files` and `prev` are dropped.
 */
export async function openMessage(conversationKey: Key, envelope: AeadEnvelope | string, place: AnyMessagePlace): Promise<MessagePayload> {
  const env = parseEnvelope(envelope, "aead");
  const bytes = await decrypt(conversationKey, env, { aad: aadOf(place) });
  let value: unknown;
  try {
    value = JSON.parse(utf8Decode(bytes));
  } catch (cause) {
    throw new CryptoError("invalid_payload", "not a message payload", { cause });
  }
  const parsed = openedPayloadSchema.safeParse(value);
  if (!parsed.success) throw new CryptoError("invalid_payload", "not a message payload");
  const { prev, ...payload } = parsed.data;
  return (prev === undefined ? payload : { ...payload, prev }) as MessagePayload;
}
