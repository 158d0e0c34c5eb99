import { decrypt, exportSymmetricKey, importSymmetricKey } from "../aead";
import { wipe } from "../bytes";
import { parseEnvelope } from "../envelope";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { type ConversationEpoch, type ConversationRecord, commitKey } from "./conversation-v2";
import { type ExtractableOption, checkId, conversationSuffix, encryptRecord } from "./place";

/**
 * History across epochs of a v2 conversation (docs/protocol.md, "Signed distribution"): each new
 * epoch's key carries the key of the epoch before it, `encrypt(key_e, raw key_(e-1))` with the
 * associated data `epoch-chain:<conversationId>:<e>`. A participant added in epoch e gets only
 * epoch e's copy and walks the chain back, so adding someone costs one seal however many epochs
 * there were; a participant removed before epoch e holds no key of e, and the chain only runs
 * backwards. The link is not signed: only holders of key_e can make it, and the opener checks the
 * key it yields against the commitment of epoch e-1's conversation record, so a participant who
 * puts a wrong key in the chain is caught (bad_commitment).
 */

export function epochChainAad(conversationId: number, epoch: number): string {
  return `epoch-chain:${conversationSuffix(conversationId, checkId(epoch, "an epoch with a previous one", 1))}`;
}

/** Encrypts the previous epoch's key (extractable) under the new epoch's key; answers the envelope's text. */
export function sealEpochLink(key: Key, previous: Key, place: ConversationEpoch): Promise<string> {
  return sealEpochLinkWith(key, previous, place, undefined);
}

/** sealEpochLink with the nonce supplied: for known-answer tests only. */
export async function sealEpochLinkWith(key: Key, previous: Key, place: ConversationEpoch, nonce: Uint8Array | undefined): Promise<string> {
  const aad = epochChainAad(place?.conversationId, place?.epoch);
  const raw = await exportSymmetricKey(previous);
  try {
    return await encryptRecord(key, raw, aad, nonce);
  } finally {
    wipe(raw);
  }
}

/**
 * Opens the link of epoch `record.epoch + 1` with that epoch's key and answers the key of the
 * epoch before it, which must match `previous` (the verified conversation record of that earlier
 * epoch): wrong key, conversation or epoch: decrypt_failed; not 32 bytes or another key than the
 * record commits to: bad_commitment. Not extractable unless asked (to make the next link).
 */
export async function openEpochLink(key: Key, link: string, previous: ConversationRecord, options: ExtractableOption = {}): Promise<Key> {
  if (typeof previous !== "object" || previous === null) throw new CryptoError("invalid_input", "the previous epoch's conversation record is missing");
  const place = { conversationId: previous.conversationId, epoch: previous.epoch };
  const raw = await decrypt(key, parseEnvelope(link, "aead"), { aad: epochChainAad(place.conversationId, checkId(place.epoch, "an epoch", 0) + 1) });
  try {
    if (raw.length !== 32 || (await commitKey(raw, place)) !== previous.keyCommitment) {
      throw new CryptoError("bad_commitment", "the chained key is not the one the earlier record commits to");
    }
    return await importSymmetricKey(raw, { extractable: options.extractable === true });
  } finally {
    wipe(raw);
  }
}
