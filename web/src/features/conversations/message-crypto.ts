import type { MoteView } from "@sealwork/contracts";
import {
  type IdentityKeys,
  type Key,
  type MessagePayload,
  type SignedMessage,
  type SignedMessagePlace,
  isCryptoError,
  openMessage as openMessageRecord,
  sealMessage as sealMessageRecord,
  openSignedMessages,
  sealSignedMessage,
  verifyMessageSignature,
} from "@sealwork/crypto";
import { TEST_CHECKS, checkOff } from "../../lib/build-settings";
import type { KeyRing, Ring } from "./distribution";

/** A DistributionError (by name: this module does not load distribution.ts and its texts), of `reason` if given. */
function isDistributionError(error: unknown, reason?: string): boolean {
  return error instanceof Error && error.name === "DistributionError" && (reason === undefined || (error as { reason?: unknown }).reason === reason);
}

/**
 * A message's payload under the conversation key (docs/protocol.md, Conversations), over the
 * message record of `@sealwork/crypto`: the associated data names the conversation, the sender
 * and the sender's local id, so the server cannot present a message as another one, in another
 * conversation or by someone else. In a conversation with a membership log (protocol v2, §14.8)
 * it names the key's epoch too, and each member's message carries their signature.
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

/**
 * What POST …/append takes for a signed message of the ring's current epoch, naming the head of
 * the log it verified (§14.8) and one's previous message, which its signature then vouches for
 * (docs/protocol.md, "Messages vouched for by the next one").
 */
export async function sealForRing(ring: Ring, me: IdentityKeys, localid: string, payload: MessagePayload) {
  const place = { v: 2 as const, conversationId: ring.conversationId, epoch: ring.epoch, senderId: me.userId, localid };
  const signed = await sealChainedMessage(ring, place, payload, me);
  return { payload: signed.envelope, epoch: ring.epoch, signature: signed.signature, sender_key_id: signed.senderKeyId, log_head: ring.log.head };
}

/**
 * How a message of a v2 conversation is shown: `signed` by its sender (verified), `guest` (a
 * pickup's guest, who has no key to sign with), `unsigned` (a member's message from before the
 * conversation had a log), `invalid` (a signature that does not verify, a sender who was not a
 * member in that epoch, an unsigned message where members sign: never shown as the named sender's).
 */
export type Verification = "signed" | "guest" | "unsigned" | "invalid";

export interface OpenedMessage {
  payload: MessagePayload | null;
  verification: Verification;
}

/** Opens a stored message of a v2 conversation with its epoch's key, checking its signature first. */
export async function openWithRing(ring: Ring, mote: Pick<MoteView, "source_id" | "localid" | "payload" | "epoch" | "signature" | "sender_key_id" | "log_head">): Promise<OpenedMessage> {
  const invalid: OpenedMessage = { payload: null, verification: "invalid" };
  const { source_id: senderId, localid, epoch } = mote;
  if (localid === null) return invalid;
  const open = async (key: Key, place: Parameters<typeof openMessageRecord>[2], verification: Verification): Promise<OpenedMessage> => {
    try {
      return { payload: await openMessageRecord(key, mote.payload, place), verification };
    } catch (error) {
      if (!isCryptoError(error)) throw error;
      return { payload: null, verification };
    }
  };
  try {
    // Test build only: a member's message that opens is theirs, signed or not ("message-signature" off).
    if (TEST_CHECKS && checkOff("message-signature") && senderId !== 0 && epoch !== null) {
      return open(await ring.keyFor(epoch), { v: 2 as const, conversationId: ring.conversationId, epoch, senderId, localid }, "signed");
    }
    if (mote.signature !== null && mote.sender_key_id !== null && epoch !== null) {
      if (senderId === 0 || !ring.membersOf(epoch).has(senderId)) return invalid;
      const place = { v: 2 as const, conversationId: ring.conversationId, epoch, senderId, localid };
      const signed = { envelope: mote.payload, signature: mote.signature, senderKeyId: mote.sender_key_id, ...(mote.log_head ? { logHead: mote.log_head } : {}) };
      await verifyMessageSignature(signed, place, ring.keysOf);
      // The head its sender signed must be in this client's log (test build: not compared with "message-log-head" off).
      if (ring.checkHead && !(TEST_CHECKS && checkOff("message-log-head"))) await ring.checkHead(signed, place);
      return open(await ring.keyFor(epoch), place, "signed");
    }
    if (senderId === 0) {
      const place = epoch === null ? { conversationId: ring.conversationId, senderId, localid } : { v: 2 as const, conversationId: ring.conversationId, epoch, senderId, localid };
      return open(await ring.keyFor(epoch ?? 0), place, "guest");
    }
    // Members sign; only messages from before the log (no epoch, epoch 0's key) come without.
    if (epoch !== null) return invalid;
    return open(await ring.keyFor(0), { conversationId: ring.conversationId, senderId, localid }, "unsigned");
  } catch (error) {
    // A fork its head shows refuses the conversation (the page shows the warning), not just the message.
    if (isDistributionError(error, "log_fork")) throw error;
    // A key of that epoch that could not be had (distribution.ts refuses it): the message stays unread.
    if (isCryptoError(error) || isDistributionError(error)) return invalid;
    throw error;
  }
}

type RingMote = Parameters<typeof openWithRing>[1] & { id: number };

/**
 * Opens a page of a v2 conversation's messages (in any order) as openWithRing opens each, but
 * checks the signatures of members' messages through the ring's chain (openChainedMessages).
 * Answers the results in the order given.
 */
export function openRingMessages(ring: Ring, motes: readonly RingMote[]): Promise<OpenedMessage[]> {
  const chained = !(TEST_CHECKS && checkOff("message-signature"));
  return openChainedMessages(
    ring,
    motes,
    ({ source_id: senderId, localid, epoch, signature, sender_key_id: senderKeyId }) =>
      chained && signature !== null && senderKeyId !== null && epoch !== null && localid !== null && senderId !== 0 && ring.membersOf(epoch).has(senderId)
        ? { v: 2, conversationId: ring.conversationId, epoch, senderId, localid }
        : null,
    (mote) => openWithRing(ring, mote),
  );
}

/** A stored signed message as the server serves it: where it is, and what its sender signed. */
export type SignedMote = Pick<MoteView, "id" | "payload" | "signature" | "sender_key_id" | "log_head">;

/**
 * Opens a page of signed messages (in any order) newest first through the ring's chain: a message
 * its sender's next one names is authentic through that one's signature, any other by its own
 * (docs/protocol.md, "Messages vouched for by the next one"); each then has the log head it names
 * checked (a fork throws log_fork). `placeOf` answers where a mote belongs when it is a member's
 * signed message of an epoch this ring reaches, else null; those, and authentic messages that do
 * not open, are answered by `otherwise` (the one-message path, with its own rules). Anything
 * refused is "invalid". Answers the results in the order given.
 */
export async function openChainedMessages<M extends SignedMote>(
  ring: KeyRing<unknown>,
  motes: readonly M[],
  placeOf: (mote: M) => SignedMessagePlace | null,
  otherwise: (mote: M) => Promise<OpenedMessage>,
): Promise<OpenedMessage[]> {
  const invalid: OpenedMessage = { payload: null, verification: "invalid" };
  const results = new Map<M, Promise<OpenedMessage>>();
  const batch: { mote: M; place: SignedMessagePlace; message: SignedMessage; key: Key }[] = [];
  await Promise.all(
    motes.map(async (mote) => {
      const place = placeOf(mote);
      const key = place && (await ring.keyFor(place.epoch).catch(() => null));
      if (!place || !key) return void results.set(mote, otherwise(mote));
      const message = { envelope: mote.payload, signature: mote.signature!, senderKeyId: mote.sender_key_id!, ...(mote.log_head ? { logHead: mote.log_head } : {}) };
      batch.push({ mote, place, message, key });
    }),
  );
  batch.sort((a, b) => b.mote.id - a.mote.id);
  const opened = await openSignedMessages(batch, ring.keysOf, ring.chain.vouchers);
  for (const [index, { mote, place, message }] of batch.entries()) {
    const result = opened[index]!;
    if (!result.ok) {
      // Perhaps authentic but not readable: the one-message path says which.
      const unreadable = result.error.code === "decrypt_failed" || result.error.code === "invalid_payload";
      results.set(mote, unreadable ? otherwise(mote) : Promise.resolve(invalid));
      continue;
    }
    if (place.senderId === ring.chain.me && mote.id > (ring.chain.own?.id ?? 0)) ring.chain.own = { id: mote.id, digest: result.digest };
    const checked = async (): Promise<OpenedMessage> => {
      // The head its sender signed must be in this client's log (test build: not compared with "message-log-head" off).
      if (ring.checkHead && !(TEST_CHECKS && checkOff("message-log-head"))) await ring.checkHead(message, place);
      const { prev: _prev, ...payload } = result.payload;
      return { payload, verification: "signed" };
    };
    results.set(
      mote,
      checked().catch((error: unknown) => {
        if (isDistributionError(error, "log_fork")) throw error;
        if (isCryptoError(error) || isDistributionError(error)) return invalid;
        throw error;
      }),
    );
  }
  return Promise.all(motes.map((mote) => results.get(mote)!));
}

/**
 * Signs `payload` as one's next message at `place` in the ring's container, naming one's previous
 * message there (which this signature then vouches for). It becomes one's newest only once stored
 * and opened (openChainedMessages): a message the server refused is named by nothing.
 */
export async function sealChainedMessage(ring: KeyRing<unknown>, place: SignedMessagePlace, payload: MessagePayload, me: IdentityKeys): Promise<SignedMessage> {
  const prev = ring.chain.me === me.userId ? ring.chain.own?.digest : undefined;
  return sealSignedMessage(ring.key, place, prev ? { ...payload, prev } : payload, me, ring.log.head);
}
