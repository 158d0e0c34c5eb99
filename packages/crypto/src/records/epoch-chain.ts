import type { Key } from "../primitives";
import { CONVERSATION_DISTRIBUTION, type ConversationEpoch, type ConversationRecord } from "./conversation-v2";
import { openChainLink, sealChainLink } from "./distribution";
import type { ExtractableOption } from "./place";

export { epochChainAad } from "./conversation-key";

/**
 * History across epochs of a v2 conversation (docs/protocol.md, "Signed distribution"): each new
 * epoch's key carries the key of the epoch before it, `encrypt(key_e, raw key_(e-1))` with the
 * associated data `epoch-chain:<conversationId>:<e>`. A participant added in epoch e gets only
 * epoch e's copy and walks the chain back, so adding someone costs one seal however many epochs
 * there were; a participant removed before epoch e holds no key of e, and the chain only runs
 * backwards. The link is not signed: only holders of key_e can make it, and the opener checks the
 * key it yields against the commitment of epoch e-1's conversation record, so a participant who
 * puts a wrong key in the chain is caught (bad_commitment). Groups chain the same way
 * (`group-key.ts`).
 */

/** Encrypts the previous epoch's key (extractable) under the new epoch's key; answers the envelope's text. */
export function sealEpochLink(key: Key, previous: Key, place: ConversationEpoch): Promise<string> {
  return sealEpochLinkWith(key, previous, place, undefined);
}

/** sealEpochLink with the nonce supplied: for known-answer tests only. */
export function sealEpochLinkWith(key: Key, previous: Key, place: ConversationEpoch, nonce: Uint8Array | undefined): Promise<string> {
  return sealChainLink(CONVERSATION_DISTRIBUTION, key, previous, place?.conversationId, place?.epoch, nonce);
}

/**
 * Opens the link of epoch `record.epoch + 1` with that epoch's key and answers the key of the
 * epoch before it, which must match `previous` (the verified conversation record of that earlier
 * epoch): wrong key, conversation or epoch: decrypt_failed; not 32 bytes or another key than the
 * record commits to: bad_commitment. Not extractable unless asked (to make the next link).
 */
export function openEpochLink(key: Key, link: string, previous: ConversationRecord, options: ExtractableOption = {}): Promise<Key> {
  return openChainLink(CONVERSATION_DISTRIBUTION, key, link, previous, options);
}
