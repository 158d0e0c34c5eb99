import { normaliseContact, registration, verificationRequest, type Session } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { config } from "../config";
import { db } from "../db/service";
import { fail, isAppError, valid } from "../errors";
import { Mail } from "../mail";
import { hashPassword } from "../password";
import { RateLimit } from "../rate-limit/rate-limit";
import type { UserItem } from "../user/entities";
import { Login } from "../user/login";
import { User } from "../user/user";
import { VerificationCode } from "../verification/verification";
import type { InviteItem } from "./entities";
import "./entities";
import "./errors";
import "../user/errors";

/**
 * An invited account's registration (spec 000 §7): a 6-digit code to its email or phone, then
 * name and password with that code, while the invitation is valid. The account's key is taken
 * over afterwards, in the browser (docs/protocol.md §13). Contacts that are not the account's
 * and wrong codes count against the client address like failed logins; codes sent and codes
 * tried are limited per account too (VerificationCode).
 */
export namespace Registration {
  /** Emails (or texts) a 6-digit code to an invited account that has no password yet. */
  export async function sendRegistrationCode(actor: Actor, uid: number, contact: string): Promise<void> {
    valid(verificationRequest, { uid, contact });
    const normalised = normaliseContact(contact);
    const user = await RateLimit.guard([[Login.loginRules().perClient, actor.ip]], async () => {
      const found = await User.get(uid);
      return found && (found.email === normalised || found.phone === normalised) ? found : fail("contact_unknown");
    });
    if (user.passwordHash) fail("already_registered");
    if (user.disabled) fail("account_disabled");
    await assertInviteOpen(user);
    const code = await VerificationCode.issue(uid, "register", normalised);
    const { INSTANCE_TITLE, APP_URL } = config();
    await Mail.send({
      to: normalised,
      channel: normalised.startsWith("+") ? "sms" : "email",
      subject: `Your ${INSTANCE_TITLE} verification code`,
      text: `Your verification code is ${code}.\n\nEnter it on ${APP_URL} to finish registering. It is valid for one hour.`,
    });
  }

  export async function register(
    actor: Actor,
    body: z.input<typeof registration>,
  ): Promise<Session> {
    const input = valid(registration, body, "registration_invalid");
    const contact = normaliseContact(input.contact);
    // Unknown contacts and wrong codes count against the client; a refusal for another reason does not.
    return RateLimit.guard(
      [[Login.loginRules().perClient, actor.ip]],
      async () => {
        const user = await User.byContact(contact);
        if (!user) fail("registration_invalid");
        if (user.passwordHash) fail("already_registered");
        const invite = await assertInviteOpen(user);
        if (!(await VerificationCode.check(user.id, "register", contact, input.vericode))) fail("vericode_incorrect");
        // Said only behind the right code.
        if (user.disabled) fail("account_disabled");
        const name = input.name.trim();
        const passwordHash = await hashPassword(input.password);
        const result = await db()
          .transaction.write((tx) => [
            User.registration(tx, user.id, { name, passwordHash }),
            VerificationCode.consumption(tx, user.id, "register"),
            ...(invite ? [tx.invite.patch({ userId: user.id }).set({ acceptedAt: Math.floor(Date.now() / 1000) }).commit()] : []),
          ])
          .go();
        if (result.canceled) fail("already_registered");
        await VerificationCode.used(user.id, "register");
        return User.session({ ...user, name, passwordHash });
      },
      { keep: (error) => isAppError(error, "registration_invalid", "vericode_incorrect") },
    );
  }
}

/**
 * An invited account registers only while its invitation is valid (an expired one, or one whose
 * item the TTL has removed, is refused). Accounts made otherwise (setup, tests) have none.
 */
async function assertInviteOpen(user: UserItem): Promise<InviteItem | undefined> {
  const { data: invite } = await db().entities.invite.get({ userId: user.id }).go();
  if (!invite) return user.invited ? fail("invite_expired") : undefined;
  if (invite.validUntil <= Date.now() / 1000) fail("invite_expired");
  return invite;
}
