import { normaliseContact, registration, verificationRequest, type Session } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { config } from "../config";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import { Mail } from "../mail";
import { hashPassword } from "../password";
import { RateLimit } from "../rate-limit/rate-limit";
import type { UserItem } from "../user/entities";
import { Login } from "../user/login";
import { User } from "../user/user";
import type { InviteItem } from "./entities";

const VERIFICATION_SECONDS = 3600;
const VERIFICATION_MAX_FAILURES = 5;

/**
 * An invited account's registration (spec 000 §7): a 6-digit code to its email or phone, then
 * name and password with that code, while the invitation is valid. The account's key is taken
 * over afterwards, in the browser (docs/protocol.md §13).
 */
export namespace Registration {
  /** Emails (or texts) a 6-digit code to an invited account that has no password yet. */
  export async function sendRegistrationCode(actor: Actor, uid: number, contact: string): Promise<void> {
    valid(verificationRequest, { uid, contact });
    await RateLimit.assertAllowed(Login.loginRules().perClient, actor.ip);
    const user = await User.get(uid);
    const normalised = normaliseContact(contact);
    if (!user || (user.email !== normalised && user.phone !== normalised)) {
      await RateLimit.recordFailure(Login.loginRules().perClient, actor.ip);
      fail("contact_unknown");
    }
    if (user.passwordHash) fail("already_registered");
    await assertInviteOpen(user);
    const code = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, "0");
    await db()
      .entities.verification.put({
        userId: uid,
        purpose: "register",
        contact: normalised,
        codeHash: await codeHash(uid, code),
        failures: 0,
        expiresAt: Math.floor(Date.now() / 1000) + VERIFICATION_SECONDS,
      })
      .go();
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
    await RateLimit.assertAllowed(Login.loginRules().perClient, actor.ip);
    const user = await User.byContact(input.contact);
    if (!user) fail("registration_invalid");
    if (user.passwordHash) fail("already_registered");
    const invite = await assertInviteOpen(user);
    const { data: pending } = await db().entities.verification.get({ userId: user.id, purpose: "register" }).go();
    const live = pending && (pending.expiresAt ?? 0) > Date.now() / 1000 && pending.contact === normaliseContact(input.contact);
    if (!live || pending.codeHash !== (await codeHash(user.id, input.vericode))) {
      await RateLimit.recordFailure(Login.loginRules().perClient, actor.ip);
      if (live && pending.failures + 1 >= VERIFICATION_MAX_FAILURES) {
        await db().entities.verification.delete({ userId: user.id, purpose: "register" }).go();
      } else if (live) {
        await db().entities.verification.patch({ userId: user.id, purpose: "register" }).add({ failures: 1 }).go();
      }
      fail("vericode_incorrect");
    }
    const passwordHash = await hashPassword(input.password);
    const result = await db()
      .transaction.write((tx) => [
        User.registration(tx, user.id, { name: input.name.trim(), passwordHash }),
        tx.verification.delete({ userId: user.id, purpose: "register" }).commit(),
        ...(invite ? [tx.invite.patch({ userId: user.id }).set({ acceptedAt: Math.floor(Date.now() / 1000) }).commit()] : []),
      ])
      .go();
    if (result.canceled) fail("already_registered");
    return User.session({ ...user, name: input.name.trim(), passwordHash });
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

async function codeHash(uid: number, code: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`register:${uid}:${code}`));
  return Buffer.from(bytes).toString("base64url");
}
