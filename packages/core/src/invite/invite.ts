import { INVITE_VALID_DAYS, id as idSchema, newInvite, tempKeypairRecord, type InviteView, type PublicUser } from "@sealwork/contracts";
import type * as z from "zod";
import { can, requireAdmin, type Actor } from "../access";
import { config } from "../config";
import { nextId } from "../db/counter";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import type { KeypairItem } from "../keys/entities";
import { Keypair } from "../keys/keypair";
import { Mail } from "../mail";
import type { UserItem } from "../user/entities";
import { getUser, getUsers } from "../user/read";
import { User } from "../user/user";
import type { InviteItem } from "./entities";

const DAY = 24 * 3600;
/** How long an expired invitation stays listed (and resendable) before the TTL removes it. */
const PURGE_AFTER_DAYS = 90;
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


  /** POST /api/instance/invite */
  export async function create(actor: Actor, body: z.input<typeof newInvite>): Promise<Created> {
    const inviter = requireAdmin(actor);
    const input = valid(newInvite, body);
    if (input.roles.superAdmin && !can(actor, "grant-super", { kind: "instance" })) {
      fail("forbidden", { message: "Only a super administrator can invite a super administrator." });
    }
    const now = nowSeconds();
    const { public_key: pub } = input;
    const record = tempKeypairRecord({ encryptPublic: pub.encrypt_public, signPublic: pub.sign_public, timestamp: pub.timestamp });
    const checked = await Keypair.checkNew({ ...pub, backup: input.transit }, record, now);

    const uid = await User.allocateUserId();
    const account = await User.prepare(uid, {
      // The invitee chooses their name when registering; until then the address stands for it.
      name: input.email,
      email: input.email,
      phone: input.phone,
      admin: Boolean(input.roles.admin || input.roles.superAdmin),
      superAdmin: Boolean(input.roles.superAdmin),
      invited: true,
    });
    const key: KeypairItem = { id: await nextId("keypair"), userId: uid, type: "temp", sentinel: now, ...checked };
    const invite: InviteItem = {
      id: await nextId("invite"),
      userId: uid,
      invitedBy: inviter.uid,
      createdAt: now,
      validUntil: now + INVITE_VALID_DAYS * DAY,
      purgeAt: now + (INVITE_VALID_DAYS + PURGE_AFTER_DAYS) * DAY,
      ...(input.message?.trim() ? { message: input.message.trim() } : {}),
    };
    const result = await db()
      .transaction.write((tx) => [...User.creation(tx, account), ...Keypair.creation(tx, key), tx.invite.create(invite).commit()])
      .go();
    const { user } = account;
    // Fresh ids cannot collide, so the only condition that fails is a contact's: already in use.
    if (result.canceled) fail("contact_taken");
    if (input.sendEmail && user.email) await sendMail(inviter.user, user.email, invite);
    return {
      account: User.toPublic(user),
      keypair: { id: key.id, type: "temp" },
      transit: { id: invite.id, expires_at: invite.validUntil },
      vericode: null,
    };
  }

  /** GET /api/instance/invites: every invitation, newest first. */
  export async function list(actor: Actor): Promise<InviteView[]> {
    requireAdmin(actor);
    const { data } = await db().entities.invite.query.all({}).go({ pages: "all" });
    const ids = [...new Set(data.flatMap((i) => [i.userId, i.invitedBy]))];
    const users = await getUsers(ids);
    const now = nowSeconds();
    return data.map((invite) => view(invite, users, now)).sort((a, b) => b.id - a.id);
  }

  /** POST /api/instance/invites/{id}/resend: a new 30-day validity and the email again. */
  export async function resend(actor: Actor, id: number): Promise<InviteView> {
    const inviter = requireAdmin(actor);
    valid(idSchema, id);
    const { data } = await db().entities.invite.query.all({ id }).go();
    // The index query matches ids by prefix (5 would find 50): pick the exact one.
    const invite = data.find((i) => i.id === id) ?? fail("invite_not_found");
    const invitee = await getUser(invite.userId);
    if (!invitee) fail("invite_not_found");
    if (invitee.passwordHash || invite.acceptedAt) fail("invite_accepted");
    const now = nowSeconds();
    const renewed = { validUntil: now + INVITE_VALID_DAYS * DAY, purgeAt: now + (INVITE_VALID_DAYS + PURGE_AFTER_DAYS) * DAY };
    await db().entities.invite.patch({ userId: invite.userId }).set(renewed).go();
    const updated = { ...invite, ...renewed };
    if (invitee.email) await sendMail(inviter.user, invitee.email, updated);
    return view(updated, new Map([[invitee.id, invitee], [inviter.uid, inviter.user]]), now);
  }

  /** Only the tests move an invitation's validity by hand (to see an expired one). */
  export async function setValidUntil(userId: number, validUntil: number): Promise<void> {
    await db().entities.invite.patch({ userId }).set({ validUntil }).go();
  }

  function view(invite: InviteItem, users: Map<number, UserItem>, now: number): InviteView {
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
