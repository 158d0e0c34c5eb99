import { timingSafeEqual } from "node:crypto";
import { DeleteObjectsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { PICKUP_MAX_WRONG, type ConversationView, type NewPickup, type PickupView } from "@sealwork/contracts";
import { base64urlDecode, isCryptoError, parseEnvelope, parsePickupFragment, pickupLink, pickupLookup, pickupParams, pickupVerifier } from "@sealwork/crypto";
import { isMember, type Caller, type GuestCaller, type MemberCaller } from "./caller";
import { config } from "./config";
import { Conversation } from "./conversation";
import { db, type ConversationItem, type ParticipantItem, type PickupItem } from "./db/entities";
import { fail } from "./errors";
import { Mail } from "./mail";
import { Queue } from "./queue";
import { RateLimit, isConditionFailure } from "./rate-limit";
import { attachmentPrefix, s3 } from "./storage";
import { issueToken } from "./tokens";

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
/** The TTL removes a pickup's own items this long after its validity end; the sweep comes first. */
const PURGE_GRACE = 7 * DAY;
export const GUEST_NAME = "Guest";

/**
 * Pickups (spec 000; docs/api.md Pickups; docs/protocol.md Pickups): a conversation with
 * recipient 0 whose second participant is the guest, user id 0. The guest's participant item
 * holds the `pickup-wrap` envelope where members hold a sealed key. The server stores neither the
 * pickup code nor the security code nor the link: it finds the pickup by the client's lookup
 * hash, checks SHA-256 of the guest's auth key against the verifier, counts wrong ones per pickup
 * (locked for good at PICKUP_MAX_WRONG) and per client (429), and mails the link once.
 */
export namespace Pickup {
  function member(caller: Caller): MemberCaller {
    if (!isMember(caller)) fail("forbidden");
    return caller;
  }

  /** Wrong lookups and auth keys from one client address: the login's per-client limit. */
  function clientRule(): RateLimit.Rule {
    const { LOGIN_MAX_FAILURES_PER_IP, LOGIN_LOCK_SECONDS } = config();
    return { scope: "pickup-client", max: LOGIN_MAX_FAILURES_PER_IP, windowSeconds: LOGIN_LOCK_SECONDS };
  }

  const isLive = (p: PickupItem, now = nowSeconds()) => p.expireAt > now && p.failures < PICKUP_MAX_WRONG;

  async function get(conversationId: number): Promise<PickupItem | undefined> {
    const { data } = await db().entities.pickup.get({ conversationId }).go();
    return data ?? undefined;
  }

  /** The live pickup behind a lookup hash, or undefined (unknown, expired, deleted or locked). */
  async function byLookup(lookup: string): Promise<PickupItem | undefined> {
    const { data } = await db().entities.pickuplookup.get({ lookup }).go();
    const pickup = data ? await get(data.conversationId) : undefined;
    return pickup && pickup.lookup === lookup && isLive(pickup) ? pickup : undefined;
  }

  function view(p: PickupItem, wrapped: string): PickupView {
    return {
      conversation_id: p.conversationId,
      email: p.email,
      redeem_timestamp: p.redeemedAt ?? -1,
      expire_timestamp: p.expireAt,
      link_secret: pickupParams(wrapped).link === 1,
      locked: p.failures >= PICKUP_MAX_WRONG,
    };
  }

  async function guestParticipant(conversationId: number): Promise<ParticipantItem | undefined> {
    const { data } = await db().entities.participant.get({ conversationId, userId: 0 }).go();
    return data ?? undefined;
  }

  // --- creating -----------------------------------------------------------------------------

  /**
   * POST /api/pickup: the conversation (recipient 0), its two participants (the creator with the
   * sealed key, the guest with the pickup-wrap envelope), the pickup and its unique lookup item
   * in one transaction; then the invitation email with the link. The link is checked (this
   * instance's address, a valid fragment matching the lookup and the envelope) and never stored.
   */
  export async function create(caller: Caller, input: NewPickup) {
    const me = member(caller);
    const sealed = envelope(input.sealed, "sealed");
    const wrapped = envelope(input.wrapped, "pickup-wrap");
    const title = input.title === undefined ? undefined : envelope(input.title, "aead");
    const { APP_URL, INSTANCE_NAME } = config();
    const fragment = parsePickupFragment(input.link);
    if (!fragment || input.link !== pickupLink(APP_URL, fragment.code, fragment.linkSecret)) fail("pickup_invalid", { message: "The pickup link is not a link to this instance." });
    if ((fragment.linkSecret !== null) !== (pickupParams(wrapped).link === 1)) fail("pickup_invalid", { message: "The link and the key disagree about the link secret." });
    // The server sees the code here anyway (it mails the link); checking the lookup costs one
    // modest Argon2id and keeps a client bug from making a pickup nobody can find.
    if ((await pickupLookup(fragment.code, INSTANCE_NAME)) !== input.lookup) fail("pickup_invalid", { message: "The lookup does not belong to the code in the link." });

    const id = input.conversation_id;
    const ms = Date.now();
    const now = Math.floor(ms / 1000);
    const expireAt = now + input.expiredays * DAY;
    const purgeAt = expireAt + PURGE_GRACE;
    const conversation: ConversationItem = { id, authorId: me.uid, recipientId: 0, title, multiple: false, createdAt: now, lastMoteId: 0, timestamp: now, activity: ms };
    const participant = (userId: number, key: string): ParticipantItem => ({
      conversationId: id,
      userId,
      admin: userId === me.uid,
      sealedKey: key,
      joinedAt: ms,
      lastVisit: userId === me.uid ? now : 0,
      lastSeenMote: 0,
      archived: false,
    });
    const pickup: PickupItem = { conversationId: id, lookup: input.lookup, authorId: me.uid, email: input.email, verifier: input.verifier, failures: 0, createdAt: now, expireAt, purgeAt };
    const result = await db()
      .transaction.write((tx) => [
        tx.pickuplookup.create({ lookup: input.lookup, conversationId: id, purgeAt }).commit(),
        Conversation.consumeReservation(tx, id, me.uid),
        tx.pickup.create(pickup).commit(),
        tx.conversation.create(conversation).commit(),
        tx.participant.create(participant(me.uid, sealed)).commit(),
        tx.participant.create(participant(0, wrapped)).commit(),
      ])
      .go();
    if (result.canceled) {
      // The lookup is taken (the same code twice: about one in 2^39), so the client picks another.
      if (result.data[0]?.code === "ConditionalCheckFailed") fail("pickup_exists");
      if (result.data[1]?.code === "ConditionalCheckFailed") fail("reservation_invalid");
      throw new Error(`creating pickup ${id} was cancelled: ${result.data.map((r) => r.code).join(",")}`);
    }
    await sendMail(me, input.email, input.link, expireAt);
    return { conversation_id: id, conversation: await Conversation.describe(id, me.uid), pickup: view(pickup, wrapped) };
  }

  function envelope<K extends "sealed" | "pickup-wrap" | "aead">(text: string, kind: K): string {
    try {
      parseEnvelope(text, kind);
      return text;
    } catch (error) {
      if (!isCryptoError(error)) throw error;
      return fail(kind === "aead" ? "title_invalid" : kind === "sealed" ? "sealed_key_invalid" : "pickup_invalid");
    }
  }

  /** Who sent it and the link; never the title, a message or the security code. */
  async function sendMail(creator: MemberCaller, to: string, link: string, expireAt: number): Promise<void> {
    const { INSTANCE_TITLE } = config();
    const sender = creator.user.name;
    const until = new Date(expireAt * 1000).toISOString().slice(0, 10);
    await Mail.send({
      to,
      channel: "email",
      subject: `${sender} sent you an encrypted pickup`,
      text:
        `${sender} (${creator.user.email ?? ""}) has sent you encrypted messages through ${INSTANCE_TITLE}.\n\n` +
        `To read them and answer, open this link:\n\n${link}\n\n` +
        `You will also need the 6-digit security code, which ${sender} gives you separately (not by email). ` +
        `The pickup can be opened until ${until}. Do not forward this email.`,
    });
  }

  // --- the guest ----------------------------------------------------------------------------

  /** GET /api/pickup/{lookup}: the derivation parameters; 404 (counted per client) otherwise. */
  export async function meta(caller: Caller, lookup: string) {
    await RateLimit.assertAllowed(clientRule(), caller.ip);
    const pickup = await byLookup(lookup);
    const guest = pickup && (await guestParticipant(pickup.conversationId));
    if (!pickup || !guest) {
      await RateLimit.recordFailure(clientRule(), caller.ip);
      return fail("pickup_not_found");
    }
    const params = pickupParams(guest.sealedKey);
    return {
      conversation_id: pickup.conversationId,
      salt: params.salt,
      memoryKiB: params.memoryKiB,
      iterations: params.iterations,
      parallelism: params.parallelism,
      link_secret: params.link === 1,
      expire_timestamp: pickup.expireAt,
      redeem_timestamp: pickup.redeemedAt ?? -1,
    };
  }

  /**
   * POST /api/pickup/recover/{lookup}: SHA-256 of `auth` against the verifier, in constant time.
   * A wrong one counts against the client and the pickup (a conditional add, so concurrent
   * guesses cannot pass the limit); the PICKUP_MAX_WRONG-th locks the pickup for good and it
   * answers 404 from then on, like an unknown code. A right one records the first redemption and
   * answers a guest token for this pickup's conversation and the pickup-wrap envelope.
   */
  export async function recover(caller: Caller, lookup: string, auth: string) {
    const rule = clientRule();
    await RateLimit.assertAllowed(rule, caller.ip);
    const pickup = await byLookup(lookup);
    const guest = pickup && (await guestParticipant(pickup.conversationId));
    if (!pickup || !guest) {
      await RateLimit.recordFailure(rule, caller.ip);
      return fail("pickup_not_found");
    }
    if (!sameBytes(await pickupVerifier(auth), pickup.verifier)) {
      await RateLimit.recordFailure(rule, caller.ip);
      const failures = await countWrong(pickup.conversationId);
      return fail(failures >= PICKUP_MAX_WRONG ? "pickup_not_found" : "pickup_auth_incorrect");
    }
    const redeemedAt = pickup.redeemedAt ?? (await redeem(pickup.conversationId));
    return {
      id: 0 as const,
      name: GUEST_NAME,
      api_token: await issueToken({ kind: "guest", uid: 0, pickup: String(pickup.conversationId) }),
      conversation_id: pickup.conversationId,
      wrapped: guest.sealedKey,
      expire_timestamp: pickup.expireAt,
      redeem_timestamp: redeemedAt,
    };
  }

  /** Adds one wrong try while below the limit; the count after it (the limit if already locked). */
  async function countWrong(conversationId: number): Promise<number> {
    try {
      const { data } = await db()
        .entities.pickup.update({ conversationId })
        .add({ failures: 1 })
        .where((attr, op) => op.lt(attr.failures, PICKUP_MAX_WRONG))
        .go({ response: "all_new" });
      return data.failures ?? PICKUP_MAX_WRONG;
    } catch (error) {
      if (isConditionFailure(error)) return PICKUP_MAX_WRONG;
      throw error;
    }
  }

  /** The first redemption time: set once (a conditional write), read back if another won. */
  async function redeem(conversationId: number): Promise<number> {
    const at = nowSeconds();
    try {
      await db()
        .entities.pickup.patch({ conversationId })
        .set({ redeemedAt: at })
        .where((attr, op) => op.notExists(attr.redeemedAt))
        .go();
      return at;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await get(conversationId))?.redeemedAt ?? at;
    }
  }

  /**
   * A guest caller takes part in its own pickup's conversation only, while the pickup is live:
   * another conversation is 403, an expired, locked or deleted pickup 404 (spec 000 §8 texts).
   */
  export async function admitGuest(caller: GuestCaller, conversationId: number): Promise<void> {
    if (caller.pickup !== String(conversationId)) fail("conversation_forbidden");
    const pickup = await get(conversationId);
    if (!pickup || !isLive(pickup)) fail("conversation_not_found");
  }

  /** The creator's view of the pickups among these conversations, keyed by conversation id. */
  export async function views(conversations: ConversationView[]): Promise<Record<string, PickupView>> {
    const ids = conversations.filter((c) => c.recipient_id === 0).map((c) => c.id);
    const out: Record<string, PickupView> = {};
    if (!ids.length) return out;
    const [{ data: pickups }, { data: guests }] = await Promise.all([
      db().entities.pickup.get(ids.map((conversationId) => ({ conversationId }))).go(),
      db().entities.participant.get(ids.map((conversationId) => ({ conversationId, userId: 0 }))).go(),
    ]);
    const wraps = new Map(guests.map((g) => [g.conversationId, g.sealedKey]));
    for (const p of pickups) {
      const wrapped = wraps.get(p.conversationId);
      if (wrapped) out[String(p.conversationId)] = view(p, wrapped);
    }
    return out;
  }

  // --- deleting and expiry ------------------------------------------------------------------

  /**
   * DELETE /api/conversations/{id}: only a pickup, only by its author (spec 000 §6, §8). The
   * table items go now; the bucket objects under the conversation's prefix through the jobs
   * queue (retried until done).
   */
  export async function remove(caller: Caller, id: number) {
    const me = member(caller);
    const { data: conversation } = await db().entities.conversation.get({ id }).go();
    if (!conversation) fail("conversation_not_found");
    if (conversation.recipientId !== 0) fail("conversation_not_pickup");
    if (conversation.authorId !== me.uid) fail("pickup_delete_forbidden");
    await purge(id);
    return { deleted: true as const };
  }

  /** Every item of a pickup's conversation, then its files (queued). Idempotent. */
  async function purge(id: number): Promise<void> {
    const pickup = await get(id);
    // The lookup item first: from then on nobody can find the pickup, whatever else fails.
    if (pickup) await db().entities.pickuplookup.delete({ lookup: pickup.lookup }).go();
    const [{ data: motes }, { data: participants }, { data: attachments }] = await Promise.all([
      db().entities.mote.query.byConversation({ conversationId: id }).go({ pages: "all" }),
      db().entities.participant.query.byConversation({ conversationId: id }).go({ pages: "all" }),
      db().entities.attachment.query.byConversation({ conversationId: id }).go({ pages: "all" }),
    ]);
    const localids = motes.filter((m) => m.localid).map((m) => ({ conversationId: id, userId: m.sourceId, localid: m.localid! }));
    await Promise.all([
      motes.length && db().entities.mote.delete(motes.map((m) => ({ conversationId: id, id: m.id }))).go(),
      localids.length && db().entities.localid.delete(localids).go(),
      participants.length && db().entities.participant.delete(participants.map((p) => ({ conversationId: id, userId: p.userId }))).go(),
      attachments.length && db().entities.attachment.delete(attachments.map((a) => ({ conversationId: id, id: a.id }))).go(),
    ]);
    await db().entities.conversation.delete({ id }).go();
    await db().entities.pickup.delete({ conversationId: id }).go();
    await Queue.send({ type: "purge-attachments", conversationId: id });
  }

  /** The jobs worker: deletes every bucket object under the conversation's attachment prefix. */
  export async function purgeObjects(conversationId: number): Promise<void> {
    const Bucket = config().BUCKET_NAME;
    const Prefix = attachmentPrefix(conversationId);
    for (;;) {
      const page = await s3().send(new ListObjectsV2Command({ Bucket, Prefix, MaxKeys: 1000 }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (!keys.length) return;
      await s3().send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
    }
  }

  /**
   * Removes every pickup past its validity end, with its conversation and files (queued). Run by
   * the `pickup-sweep` job; the TTL on the pickup's own items is only the backstop.
   */
  export async function sweep(now = nowSeconds()): Promise<number[]> {
    const { data } = await db().entities.pickup.query.byExpiry({}).lt({ expireAt: now }).go({ pages: "all" });
    const ids = [...new Set(data.map((p) => p.conversationId))];
    for (const id of ids) await purge(id);
    return ids;
  }
}

function sameBytes(a: string, b: string): boolean {
  const left = Buffer.from(base64urlDecode(a));
  const right = Buffer.from(base64urlDecode(b));
  return left.length === right.length && timingSafeEqual(left, right);
}
