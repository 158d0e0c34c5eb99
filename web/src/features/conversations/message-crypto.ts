import type { MoteView } from "@sealwork/contracts";
import { type Key, decrypt, encrypt, serializeEnvelope, utf8Decode, utf8Encode } from "@sealwork/crypto";
import type { FileRef } from "./attachments/file-ref";

/**
 * A message's payload, encrypted under the conversation key (docs/protocol.md, Conversations).
 * The associated data names the conversation, the sender and the sender's local id, so the
 * server cannot present a message as another one, in another conversation or by someone else.
 */
export interface MessagePayload {
  text?: string;
  files?: FileRef[];
}

export const messageAad = (conversationId: number, sourceId: number, localid: string) => `message:${conversationId}:${sourceId}:${localid}`;

export async function sealMessage(key: Key, conversationId: number, sourceId: number, localid: string, payload: MessagePayload): Promise<string> {
  const envelope = await encrypt(key, utf8Encode(JSON.stringify(payload)), { aad: messageAad(conversationId, sourceId, localid) });
  return serializeEnvelope(envelope);
}

/** Decrypts and checks a stored message; throws when it does not open or is not a payload (spec 000 §8 'Invalid mote payload'). */
export async function openMessage(key: Key, conversationId: number, mote: Pick<MoteView, "source_id" | "localid" | "payload">): Promise<MessagePayload> {
  if (mote.localid === null) throw new Error("a message without a local id cannot be opened");
  const bytes = await decrypt(key, mote.payload, { aad: messageAad(conversationId, mote.source_id, mote.localid) });
  const value: unknown = JSON.parse(utf8Decode(bytes));
  if (!isPayload(value)) throw new Error("not a message payload");
  return value;
}

function isPayload(value: unknown): value is MessagePayload {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { text, files } = value as Record<string, unknown>;
  if (text !== undefined && typeof text !== "string") return false;
  return files === undefined || (Array.isArray(files) && files.every((f) => typeof f === "object" && f !== null));
}
