import { INVITE_VALID_DAYS, id as idSchema, newInvite, newInviteCode, resendInvite, type InviteView, type PublicUser } from "@sealwork/contracts";
import type * as z from "zod";
import { can, requireAdmin, type Actor } from "../access";
import { config } from "../config";
import { nextId } from "../db/counter";
import { cancellationReasons, db, type TransactionEntities } from "../db/service";
import { fail, valid } from "../errors";
import { IdentityRecords } from "../identity/records";
import type { KeypairItem } from "../keys/entities";
import { Keypair } from "../keys/keypair";
import { KeyResets } from "../keys/resets";
import { awaitingTakeover } from "../keys/current";
import { Mail } from "../mail";
import type { UserItem } from "../user/entities";
import { Accounts } from "../user/accounts";
import { getUser, getUsers, toPublic } from "../user/read";
import type { InviteItem } from "./entities";
import "../identity/errors";
import "./entities";
import "./errors";
import "../user/errors";

const DAY = 24 * 3600;
/** How long an expired invitation stays listed (and resendable) before the TTL removes it. */
const PURGE_AFTER_DAYS = 90;
/** How long a reserved invite id waits for its signed invitation. */
const RESERVATION_SECONDS = 3600;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Invitations (spec 000 §2–§4, §7; docs/protocol.md §13). An administrator's browser makes the
 * invitee's temporary account keys and wraps them under an invitation code it shows only to
 * the administrator; the server stores, in one transaction, the account (no password yet), the
 * temporary key (type "temp", its backup being the "transit" envelope) as the account's current
 * key, and the invitation with its 30-day validity. Registering needs a valid invitation and
 * marks it accepted; the invitee's key popup then takes the temporary key over.
 */
export namespace Invite {
  export interface Created {
    account: PublicUser;
    keypair: { id: number; type: "temp" };
    transit: { id: number; expires_at: number };
    vericode: null;
  }


  /** POST /api/instance/invites/reserve: an invite id for an invitation the administrator signs (protocol v2). */
  export async function reserve(actor: Actor): Promise<{ id: number }> {
    const admin = requireAdmin(actor);
    const id = await nextId("invite");
    await db().entities.invitereservation.create({ id, adminId: admin.uid, expiresAt: nowSeconds() + RESERVATION_SECONDS }).go();
    return { id };
  }

  /**
   * POST /api/instance/invite. With a signed invitation (protocol v2) the invite takes the id the
   * administrator reserved and signed, its validity ends when the signed one does (at most 30
   * days), and the invitee's birth record must be certified by it; without one it is a legacy
   * invitation, as administrators without a certified identity make.
   */
  export async function create(actor: Actor, body: z.input<typeof newInvite>): Promise<Created> {
    const inviter = requireAdmin(actor);
    const input = valid(newInvite, body);
    if (input.roles.superAdmin && !can(actor, "grant-super", { kind: "instance" })) {
      fail("forbidden", { message: "Only a super administrator can invite a super administrator." });
    }
    const now = nowSeconds();
    const temp = await Keypair.checkTemp(input.public_key, input.transit, now);
    const signed = input.invitation === undefined ? undefined : await signedInvitation(inviter.uid, input.invitation, input.email, temp.key, now);

    const uid = await Accounts.allocateUserId();
    const account = Accounts.prepare(uid, {
      // The invitee chooses their name when registering; until then the address stands for it.
      name: input.email,
      email: input.email,
      phone: input.phone,
      admin: Boolean(input.roles.admin || input.roles.superAdmin),
      superAdmin: Boolean(input.roles.superAdmin),
      invited: true,
    });
    const key: KeypairItem = { id: await nextId("keypair"), userId: uid, type: "temp", sentinel: now, ...temp.key };
    const validUntil = signed ? Math.min(signed.validUntil, now + INVITE_VALID_DAYS * DAY) : now + INVITE_VALID_DAYS * DAY;
    const invite: InviteItem = {
      id: signed?.inviteId ?? (await nextId("invite")),
      userId: uid,
      invitedBy: inviter.uid,
      createdAt: now,
      validUntil,
      purgeAt: validUntil + PURGE_AFTER_DAYS * DAY,
      ...(input.message?.trim() ? { message: input.message.trim() } : {}),
      ...(signed ? { invitation: signed.text } : {}),
    };
    const result = await db()
      .transaction.write((tx) => [
        ...Accounts.creation(tx, account),
        ...Keypair.creation(tx, key),
        Keypair.transitCreation(tx, key, temp.transit, validUntil),
        tx.invite.create(invite).commit(),
        ...(signed ? [reservationUse(tx, signed.inviteId, inviter.uid)] : []),
      ])
      .go();
    const { user } = account;
    if (result.canceled) {
      // Fresh ids cannot collide: a contact's condition (in use) or the reservation's (used meanwhile).
      fail(signed && cancellationReasons(result).at(-1) === "ConditionalCheckFailed" ? "invite_reservation_invalid" : "contact_taken");
    }
    if (input.sendEmail && user.email) await sendMail(inviter.user, user.email, invite);
    return {
      account: toPublic(user),
      keypair: { id: key.id, type: "temp" },
      transit: { id: invite.id, expires_at: invite.validUntil },
      vericode: null,
    };
  }

  /** A signed invitation for this address and temporary key, on an id this administrator reserved. */
  async function signedInvitation(issuerId: number, raw: unknown, email: string, temp: { encryptPublic: string; signPublic: string }, now: number) {
    const inviteId = reservedId(raw);
    const { data: reservation } = await db().entities.invitereservation.get({ id: inviteId }).go();
    if (!reservation || reservation.adminId !== issuerId || reservation.expiresAt <= now) fail("invite_reservation_invalid");
    const checked = await IdentityRecords.checkInvitation(issuerId, raw, { inviteId, email, temp });
    return { inviteId, text: checked.text, validUntil: Math.floor(checked.expires / 1000) };
  }

  /** The reservation is used up in the invite's transaction: by its administrator, once. */
  function reservationUse(tx: TransactionEntities, id: number, adminId: number) {
    return tx.invitereservation
      .delete({ id })
      .where((attr, op) => `${op.exists(attr.id)} AND ${op.eq(attr.adminId, adminId)}`)
      .commit();
  }

  /** The invite id inside a signed invitation, before it is checked in depth. */
  function reservedId(raw: unknown): number {
    const inviteId = (raw as { record?: { inviteId?: unknown } } | null)?.record?.inviteId;
    return typeof inviteId === "number" && Number.isSafeInteger(inviteId) && inviteId > 0 ? inviteId : fail("invitation_invalid");
  }

  /** GET /api/instance/invites: every invitation, newest first. */
  export async function list(actor: Actor): Promise<InviteView[]> {
    requireAdmin(actor);
    const { data } = await db().entities.invite.query.all({}).go({ pages: "all" });
    const ids = [...new Set(data.flatMap((i) => [i.userId, i.invitedBy]))];
    const users = await getUsers(ids);
    const now = nowSeconds();
    const awaiting = await awaitingTakeover(data.map((i) => i.userId));
    return data.map((invite) => view(invite, users, now, awaiting)).sort((a, b) => b.id - a.id);
  }

  /**
   * POST /api/instance/invites/{id}/resend: the email again. A pending legacy invitation gets 30
   * more days (a signed one keeps the expiry its administrator signed). An expired one lost its
   * transit envelope, so it is issued again: new temporary keys and transit (and, where it was
   * signed, a new signed invitation on the same id), replacing the old temporary key, with a new
   * validity. Without them it is `invite_reissue`.
   */
  export async function resend(actor: Actor, id: number, body: z.input<typeof resendInvite> = {}): Promise<InviteView> {
    const inviter = requireAdmin(actor);
    valid(idSchema, id);
    const input = valid(resendInvite, body);
    const { invite, invitee } = await inviteOf(id);
    if (invitee.passwordHash || invite.acceptedAt) fail("invite_accepted");
    const now = nowSeconds();
    let updated: InviteItem;
    if (input.public_key && input.transit) {
      const head = await Keypair.currentKey(invitee.id);
      if (head?.item.type !== "temp") fail("invite_accepted");
      // The old temporary key was replaced meanwhile (a takeover, another resend).
      updated = await reissue(inviter.uid, invite, invitee, head.item.id, { public_key: input.public_key, transit: input.transit, invitation: input.invitation }, now, "invite_accepted");
    } else if (invite.validUntil <= now) {
      fail("invite_reissue");
    } else if (invite.invitation) {
      updated = invite;
    } else {
      const renewed = { validUntil: now + INVITE_VALID_DAYS * DAY, purgeAt: now + (INVITE_VALID_DAYS + PURGE_AFTER_DAYS) * DAY };
      await db().entities.invite.patch({ userId: invite.userId }).set(renewed).go();
      await Keypair.extendTransit(invitee.id, renewed.validUntil);
      updated = { ...invite, ...renewed };
    }
    if (invitee.email) await sendMail(inviter.user, invitee.email, updated);
    return view(updated, new Map([[invitee.id, invitee], [inviter.uid, inviter.user]]), now, await awaitingTakeover([invitee.id]));
  }

  /**
   * POST /api/instance/invites/{id}/code: a new invitation code for an invitee who lost theirs and
   * has not taken their key over yet (pending, or registered without having entered the code; not
   * someone whose temporary key is a key reset's). New temporary keys and transit, and where the
   * invitation is signed a newly signed one, replace the old temporary key and its transit in one
   * transaction conditional on the old key still being current: of two administrators issuing at
   * once, one wins and the other gets `invite_changed`. No email: the code travels by another channel.
   */
  export async function newCode(actor: Actor, id: number, body: z.input<typeof newInviteCode>): Promise<InviteView> {
    const inviter = requireAdmin(actor);
    valid(idSchema, id);
    const input = valid(newInviteCode, body);
    const { invite, invitee } = await inviteOf(id);
    const head = await Keypair.currentKey(invitee.id);
    if (head?.item.type !== "temp" || (await KeyResets.of(head.item))) fail("invite_key_taken");
    const now = nowSeconds();
    const updated = await reissue(inviter.uid, invite, invitee, head.item.id, input, now, "invite_changed");
    return view(updated, new Map([[invitee.id, invitee], [inviter.uid, inviter.user]]), now, new Set([invitee.id]));
  }

  /** The invitation with this id and its invitee's account. */
  async function inviteOf(id: number): Promise<{ invite: InviteItem; invitee: UserItem }> {
    const { data } = await db().entities.invite.query.all({ id }).go();
    // The index query matches ids by prefix (5 would find 50): pick the exact one.
    const invite = data.find((i) => i.id === id) ?? fail("invite_not_found");
    const invitee = (await getUser(invite.userId)) ?? fail("invite_not_found");
    return { invite, invitee };
  }

  /**
   * The invitation issued again with new temporary keys (`input`) in place of the invitee's
   * temporary key `oldKeyId`: the key, its transit and, where the invitation was signed, the newly
   * signed one on the same id, with a new validity. `raced` when `oldKeyId` was no longer current.
   */
  async function reissue(
    issuerId: number,
    invite: InviteItem,
    invitee: UserItem,
    oldKeyId: number,
    input: z.infer<typeof newInviteCode>,
    now: number,
    raced: "invite_accepted" | "invite_changed",
  ): Promise<InviteItem> {
    if (invite.invitation && !input.invitation) fail("invitation_required");
    const temp = await Keypair.checkTemp(input.public_key, input.transit, now);
    const contact = invitee.email ?? invitee.phone ?? "";
    const signed = input.invitation === undefined ? undefined : await IdentityRecords.checkInvitation(issuerId, input.invitation, { inviteId: invite.id, email: contact, temp: temp.key });
    const validUntil = signed ? Math.min(Math.floor(signed.expires / 1000), now + INVITE_VALID_DAYS * DAY) : now + INVITE_VALID_DAYS * DAY;
    const key: KeypairItem = { id: await nextId("keypair"), userId: invitee.id, type: "temp", sentinel: now, ...temp.key };
    const renewed = { validUntil, purgeAt: validUntil + PURGE_AFTER_DAYS * DAY, ...(signed ? { invitation: signed.text } : {}) };
    const result = await db()
      .transaction.write((tx) => [...Keypair.tempReplacement(tx, oldKeyId, key, temp.transit, validUntil), tx.invite.patch({ userId: invite.userId }).set(renewed).commit()])
      .go();
    if (result.canceled) fail(raced);
    return { ...invite, ...renewed };
  }

  /** Only the tests move an invitation's validity by hand (to see an expired one). */
  export async function setValidUntil(userId: number, validUntil: number): Promise<void> {
    await db().entities.invite.patch({ userId }).set({ validUntil }).go();
  }

  /** `awaiting`: the invitees whose current key is still their invitation's temporary key. */
  function view(invite: InviteItem, users: Map<number, UserItem>, now: number, awaiting: Set<number>): InviteView {
    const invitee = users.get(invite.userId);
    const by = users.get(invite.invitedBy);
    const accepted = Boolean(invite.acceptedAt || invitee?.passwordHash);
    return {
      id: invite.id,
      user_id: invite.userId,
      email: invitee?.email ?? null,
      phone: invitee?.phone ?? null,
      status: accepted ? "accepted" : invite.validUntil <= now ? "expired" : "pending",
      invited_by: by ? { id: by.id, name: by.name } : null,
      created_at: invite.createdAt,
      expires_at: invite.validUntil,
      awaiting_key: awaiting.has(invite.userId),
    };
  }

  /**
   * Who invited, their message and where to go. Never the invitation code: it travels by
   * another channel, so that the email alone does not open the temporary key.
   */
  async function sendMail(inviter: UserItem, to: string, invite: InviteItem): Promise<void> {
    const { INSTANCE_TITLE, APP_URL } = config();
    const until = new Date(invite.validUntil * 1000).toISOString().slice(0, 10);
    const note = invite.message ? `\n\nTheir message:\n\n${invite.message}\n` : "\n";
    await Mail.send({
      to,
      channel: "email",
      subject: `${inviter.name} invites you to ${INSTANCE_TITLE}`,
      text:
        `${inviter.name} (${inviter.email ?? inviter.phone ?? ""}) has invited you to ${INSTANCE_TITLE}.${note}\n` +
        `To accept, open ${APP_URL}/login, choose Email, enter this address and register; the ` +
        `verification code comes by email. ${inviter.name} will give you your invitation code ` +
        `separately: you need it after registering. The invitation is valid until ${until}.`,
    });
  }
}
