import { INVITE_VALID_DAYS, tempKeypairRecord, type InviteView, type NewInvite, type PublicUser } from "@sealwork/contracts";
import { isAdmin, type Caller, type MemberCaller } from "./caller";
import { config } from "./config";
import { nextId } from "./db/counter";
import { db, type InviteItem, type KeypairItem, type UserItem } from "./db/entities";
import { fail } from "./errors";
import { Keypair } from "./keypair";
import { Mail } from "./mail";
import { User } from "./user";

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

  function admin(caller: Caller): MemberCaller {
    if (!isAdmin(caller)) fail("forbidden");
    return caller;
  }

  /** POST /api/instance/invite */
  export async function create(caller: Caller, input: NewInvite): Promise<Created> {
    const inviter = admin(caller);
    if (input.roles.superAdmin && inviter.kind !== "super") {
      fail("forbidden", { message: "Only a super administrator can invite a super administrator." });
    }
    const now = nowSeconds();
    const { public_key: pub } = input;
    const record = tempKeypairRecord({ encryptPublic: pub.encrypt_public, signPublic: pub.sign_public, timestamp: pub.timestamp });
    const checked = await Keypair.checkNew({ ...pub, backup: input.transit }, record, now);

    const uid = await User.allocateUserId();
    const { user, contacts } = await User.prepare(uid, {
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
      .transaction.write(({ user: users, contact, keypair, keyhead, invite: invites }) => [
        users.create(user).commit(),
        ...contacts.map((c) => contact.create({ contact: c, userId: uid }).commit()),
        keypair.create(key).commit(),
        keyhead.create({ userId: uid, keyId: key.id, valid: true, updatedAt: now }).commit(),
        invites.create(invite).commit(),
      ])
      .go();
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
  export async function list(caller: Caller): Promise<InviteView[]> {
    admin(caller);
    const { data } = await db().entities.invite.query.all({}).go({ pages: "all" });
    const ids = [...new Set(data.flatMap((i) => [i.userId, i.invitedBy]))];
    const users = new Map((await Promise.all(ids.map((id) => User.get(id)))).filter((u): u is UserItem => Boolean(u)).map((u) => [u.id, u]));
    const now = nowSeconds();
    return data.map((invite) => view(invite, users, now)).sort((a, b) => b.id - a.id);
  }

  /** POST /api/instance/invites/{id}/resend: a new 30-day validity and the email again. */
  export async function resend(caller: Caller, id: number): Promise<InviteView> {
    const inviter = admin(caller);
    const { data } = await db().entities.invite.query.all({ id }).go();
    // The index query matches ids by prefix (5 would find 50): pick the exact one.
    const invite = data.find((i) => i.id === id) ?? fail("not_found", { message: "This invitation does not exist." });
    const invitee = await User.get(invite.userId);
    if (!invitee) fail("not_found", { message: "This invitation does not exist." });
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
