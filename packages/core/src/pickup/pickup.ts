import { timingSafeEqual } from "node:crypto";
import { PICKUP_MAX_WRONG, id as idSchema, newPickup, pickupLookupParams, pickupRecoverBody } from "@sealwork/contracts";
import type * as z from "zod";
import { base64urlDecode, parsePickupFragment, pickupLink, pickupLookup, pickupParams, pickupVerifier } from "@sealwork/crypto";
import { can, requireMember, type Actor, type MemberActor } from "../access";
import { config } from "../config";
import { find, keysOf, missing } from "../conversation/access";
import { creation, purge as purgeConversation } from "../conversation/lifecycle";
import { GUEST_NAME, describe } from "../conversation/views";
import { isConditionFailure } from "../db/conditions";
import { cancellationReasons, db } from "../db/service";
import { envelopeText } from "../envelope";
import { fail, valid } from "../errors";
import { Mail } from "../mail";
import { RateLimit } from "../rate-limit/rate-limit";
import { issueToken } from "../tokens";
import type { PickupItem } from "./entities";
import { getPickup, isLive } from "./live";
import { pickupView, pickupViews, withPickupViews } from "./views";
import "../conversation/errors";
import "./entities";
import "./errors";

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
/** The TTL removes a pickup's own items this long after its validity end; the sweep comes first. */
const PURGE_GRACE = 7 * DAY;

/**
 * Pickups (spec 000; docs/api.md Pickups; docs/protocol.md Pickups): a conversation with
 * recipient 0 whose second participant is the guest, user id 0. The guest's participant item
 * holds the `pickup-wrap` envelope where members hold a sealed key. The server stores neither the
 * pickup code nor the security code nor the link: it finds the pickup by the client's lookup
 * hash, checks SHA-256 of the guest's auth key against the verifier, counts wrong ones per pickup
 * (locked for good at PICKUP_MAX_WRONG) and per client (429), and mails the link once.
 */
export namespace Pickup {

  /** Wrong lookups and auth keys from one client address: the login's per-client limit. */
  function clientRule(): RateLimit.Rule {
    const { LOGIN_MAX_FAILURES_PER_IP, LOGIN_LOCK_SECONDS } = config();
    return { scope: "pickup-client", max: LOGIN_MAX_FAILURES_PER_IP, windowSeconds: LOGIN_LOCK_SECONDS };
  }

  /** Pickups one member may create in a sliding hour: each mails an outside address. */
  function createRule(): RateLimit.Rule {
    return { scope: "pickup-create", max: config().PICKUP_MAX_PER_HOUR, windowSeconds: 3600, refusal: "pickup_limit" };
  }

  const get = getPickup;
  export const views = pickupViews;
  export const withViews = withPickupViews;

  /** The live pickup behind a lookup hash, or undefined (unknown, expired, deleted or locked). */
  async function byLookup(lookup: string): Promise<PickupItem | undefined> {
    const { data } = await db().entities.pickuplookup.get({ lookup }).go();
    const pickup = data ? await get(data.conversationId) : undefined;
    return pickup && pickup.lookup === lookup && isLive(pickup) ? pickup : undefined;
  }

  /** The guest's pickup-wrap envelope (its copy of the conversation key). */
  async function guestWrap(conversationId: number): Promise<string | undefined> {
    return (await keysOf([conversationId], 0)).get(conversationId);
  }

  // --- creating -----------------------------------------------------------------------------

  /**
   * POST /api/pickup: the conversation (recipient 0), its two participants (the creator with the
   * sealed key, the guest with the pickup-wrap envelope), the pickup and its unique lookup item
   * in one transaction; then the invitation email with the link. The link is checked (this
   * instance's address, a valid fragment matching the lookup and the envelope) and never stored.
   * Without a link (the creator sends it themselves) nothing of the code or the link secret
   * reaches the server: it cannot check them, and mails a notice without the link instead.
   */
  export async function create(actor: Actor, body: z.input<typeof newPickup>) {
    const me = requireMember(actor);
    const input = valid(newPickup, body);
    // Every attempt counts, made or not: the limit is on what one member can make the server mail.
    await RateLimit.take(createRule(), String(me.uid));
    const sealed = envelopeText(input.sealed, "sealed", "sealed_key_invalid");
    const wrapped = envelopeText(input.wrapped, "pickup-wrap", "pickup_invalid");
    const title = input.title === undefined ? undefined : envelopeText(input.title, "aead", "title_invalid");
    if (input.link !== undefined) await checkLink(input.link, input.lookup, wrapped);

    const id = input.conversation_id;
    const ms = Date.now();
    const now = Math.floor(ms / 1000);
    const expireAt = now + input.expiredays * DAY;
    const purgeAt = expireAt + PURGE_GRACE;
    const pickup: PickupItem = { conversationId: id, lookup: input.lookup, authorId: me.uid, email: input.email, verifier: input.verifier, failures: 0, createdAt: now, expireAt, purgeAt };
    const keys = new Map([
      [me.uid, sealed],
      [0, wrapped],
    ]);
    const result = await db()
      .transaction.write((tx) => [
        tx.pickuplookup.create({ lookup: input.lookup, conversationId: id, purgeAt }).commit(),
        ...creation(tx, { id, authorId: me.uid, recipientId: 0, title, multiple: false, keys }, ms).items,
        tx.pickup.create(pickup).commit(),
      ])
      .go();
    if (result.canceled) {
      const reasons = cancellationReasons(result);
      // The lookup is taken (the same code twice: about one in 2^39), so the client picks another.
      if (reasons[0] === "ConditionalCheckFailed") fail("pickup_exists");
      // The conversation's first item consumes the reservation (Conversation.creation).
      if (reasons[1] === "ConditionalCheckFailed") fail("reservation_invalid");
      throw new Error(`creating pickup ${id} was cancelled: ${reasons.join(",")}`);
    }
    await sendMail(me, input.email, input.link ?? null, expireAt);
    return { conversation_id: id, conversation: await describe(id, me.uid), pickup: pickupView(pickup, wrapped) };
  }


  /** A link to this instance whose fragment agrees with the lookup and the envelope's link flag. */
  async function checkLink(link: string, lookup: string, wrapped: string): Promise<void> {
    const { APP_URL, INSTANCE_NAME } = config();
    const fragment = parsePickupFragment(link);
    if (!fragment || link !== pickupLink(APP_URL, fragment.code, fragment.linkSecret)) fail("pickup_invalid", { message: "The pickup link is not a link to this instance." });
    if ((fragment.linkSecret !== null) !== (pickupParams(wrapped).link === 1)) fail("pickup_invalid", { message: "The link and the key disagree about the link secret." });
    // The server sees the code here anyway (it mails the link); checking the lookup costs one
    // modest Argon2id and keeps a client bug from making a pickup nobody can find.
    if ((await pickupLookup(fragment.code, INSTANCE_NAME)) !== lookup) fail("pickup_invalid", { message: "The lookup does not belong to the code in the link." });
  }

  /**
   * Who sent it and the link, or (link null: the creator passes the link on themselves) a notice
   * that the link comes from them directly. Never the title, a message or the security code.
   */
  async function sendMail(creator: MemberActor, to: string, link: string | null, expireAt: number): Promise<void> {
    const { INSTANCE_TITLE } = config();
    const sender = creator.user.name;
    const until = new Date(expireAt * 1000).toISOString().slice(0, 10);
    const how =
      link === null
        ? `${sender} sends you the link to open them directly, not through this email, and gives you the 6-digit security code separately. ` +
          `The pickup can be opened until ${until}. If you do not know ${sender}, ignore this email.`
        : `To read them and answer, open this link:\n\n${link}\n\n` +
          `You will also need the 6-digit security code, which ${sender} gives you separately (not by email). ` +
          `The pickup can be opened until ${until}. Do not forward this email.`;
    await Mail.send({
      to,
      channel: "email",
      subject: `${sender} sent you an encrypted pickup`,
      text: `${sender} (${creator.user.email ?? ""}) has sent you encrypted messages through ${INSTANCE_TITLE}.\n\n${how}`,
    });
  }

  // --- the guest ----------------------------------------------------------------------------

  /** GET /api/pickup/{lookup}: the derivation parameters; 404 (counted per client) otherwise. */
  export async function meta(actor: Actor, lookup: string) {
    valid(pickupLookupParams, { lookup });
    // Every lookup holds a slot of the client's window while it runs; a found pickup gives it back.
    return RateLimit.guard([[clientRule(), actor.ip]], async () => {
      const pickup = await byLookup(lookup);
      const wrapped = pickup && (await guestWrap(pickup.conversationId));
      if (!pickup || !wrapped) return fail("pickup_not_found");
      const params = pickupParams(wrapped);
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
    });
  }

  /**
   * POST /api/pickup/recover/{lookup}: SHA-256 of `auth` against the verifier, in constant time.
   * Each try takes a slot of the client's window and one of the pickup's PICKUP_MAX_WRONG tries
   * (conditional writes) BEFORE the comparison, so concurrent guesses cannot compare more than
   * that; a right one gives both back. The PICKUP_MAX_WRONG-th wrong one locks the pickup for good
   * and it answers 404 from then on, like an unknown code. A right one records the first
   * redemption and answers a guest token for this pickup's conversation and the pickup-wrap
   * envelope.
   */
  export async function recover(actor: Actor, lookup: string, auth: string) {
    valid(pickupLookupParams, { lookup });
    valid(pickupRecoverBody, { auth });
    return RateLimit.guard([[clientRule(), actor.ip]], async () => {
      const pickup = await byLookup(lookup);
      const wrapped = pickup && (await guestWrap(pickup.conversationId));
      if (!pickup || !wrapped) return fail("pickup_not_found");
      const tries = await takeTry(pickup.conversationId);
      if (tries === null) return fail("pickup_not_found");
      if (!sameBytes(await pickupVerifier(auth), pickup.verifier)) return fail(tries >= PICKUP_MAX_WRONG ? "pickup_not_found" : "pickup_auth_incorrect");
      await giveTryBack(pickup.conversationId);
      const redeemedAt = pickup.redeemedAt ?? (await redeem(pickup.conversationId));
      return {
        id: 0 as const,
        name: GUEST_NAME,
        api_token: await issueToken({ kind: "guest", uid: 0, pickup: String(pickup.conversationId) }),
        conversation_id: pickup.conversationId,
        wrapped,
        expire_timestamp: pickup.expireAt,
        redeem_timestamp: redeemedAt,
      };
    });
  }

  /** Counts one try while the pickup is below its limit: the count after it, or null when it is locked. */
  async function takeTry(conversationId: number): Promise<number | null> {
    try {
      const { data } = await db()
        .entities.pickup.update({ conversationId })
        .add({ failures: 1 })
        .where((attr, op) => op.lt(attr.failures, PICKUP_MAX_WRONG))
        .go({ response: "all_new" });
      return data.failures ?? PICKUP_MAX_WRONG;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /** A right security code was not a wrong try: its count is given back. */
  async function giveTryBack(conversationId: number): Promise<void> {
    try {
      await db()
        .entities.pickup.update({ conversationId })
        .add({ failures: -1 })
        .where((attr, op) => op.gt(attr.failures, 0))
        .go();
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
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

  // --- deleting and expiry ------------------------------------------------------------------

  /**
   * DELETE /api/conversations/{id}: only a pickup, only by its author (spec 000 §6, §8). The
   * table items go now; the bucket objects under the conversation's prefix through the jobs
   * queue (retried until done).
   */
  export async function remove(actor: Actor, id: number) {
    valid(idSchema, id);
    requireMember(actor);
    const conversation = await find(id);
    if (!conversation) return missing(id);
    if (conversation.recipientId !== 0) fail("conversation_not_pickup");
    if (!can(actor, "delete", { kind: "conversation", id, authorId: conversation.authorId, pickup: true, participant: null })) fail("pickup_delete_forbidden");
    await purge(id);
    return { deleted: true as const };
  }

  /** The pickup, its lookup and its conversation with everything in it (Conversation.purge). Idempotent. */
  async function purge(id: number): Promise<void> {
    const pickup = await get(id);
    // The lookup item first: from then on nobody can find the pickup, whatever else fails.
    if (pickup) await db().entities.pickuplookup.delete({ lookup: pickup.lookup }).go();
    await purgeConversation(id);
    await db().entities.pickup.delete({ conversationId: id }).go();
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
