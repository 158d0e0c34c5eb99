import type { MoteView } from "@sealwork/contracts";
import { type Key, type MessagePayload, openMessage as openMessageRecord, sealMessage as sealMessageRecord } from "@sealwork/crypto";

/**
 * A message's payload under the conversation key (docs/protocol.md, Conversations), over the
 * message record of `@sealwork/crypto`: the associated data names the conversation, the sender
 * and the sender's local id, so the server cannot present a message as another one, in another
 * conversation or by someone else.
 */
export { type MessagePayload, messageAad } from "@sealwork/crypto";

export function sealMessage(key: Key, conversationId: number, sourceId: number, localid: string, payload: MessagePayload): Promise<string> {
  return sealMessageRecord(key, { conversationId, senderId: sourceId, localid }, payload);
}

/** Decrypts and checks a stored message; throws when it does not open or is not a payload (spec 000 §8 'Invalid mote payload'). */
export async function openMessage(key: Key, conversationId: number, mote: Pick<MoteView, "source_id" | "localid" | "payload">): Promise<MessagePayload> {
  if (mote.localid === null) throw new Error("a message without a local id cannot be opened");
  return openMessageRecord(key, mote.payload, { conversationId, senderId: mote.source_id, localid: mote.localid });
}
