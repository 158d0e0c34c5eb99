import { normaliseContact, type PublicUser, type Session } from "@sealwork/contracts";
import { isAdmin, isMember, type Caller } from "./caller";
import { config } from "./config";
import { currentId, nextId } from "./db/counter";
import { db, type InviteItem, type UserItem } from "./db/entities";
import { fail } from "./errors";
import { Mail } from "./mail";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password";
import { RateLimit, isConditionFailure } from "./rate-limit";
import { issueToken } from "./tokens";
import { Totp } from "./totp";

const VERIFICATION_SECONDS = 3600;
const VERIFICATION_MAX_FAILURES = 5;

export namespace User {
  export interface NewUser {
    name: string;
    email?: string;
    phone?: string;
    password?: string;
    admin?: boolean;
    superAdmin?: boolean;
  }

  function loginRules() {
    const { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_IP, LOGIN_LOCK_SECONDS } = config();
    return {
      perUser: { scope: "login-user", max: LOGIN_MAX_FAILURES, windowSeconds: LOGIN_LOCK_SECONDS },
      perClient: { scope: "login-client", max: LOGIN_MAX_FAILURES_PER_IP, windowSeconds: LOGIN_LOCK_SECONDS },
    };
  }

  /** Creates an account; without a password it waits for registration (password_empty). */
  export async function create(input: NewUser, options: { first?: boolean } = {}): Promise<UserItem> {
    const id = await allocateId(options.first ?? false);
    const { user, contacts } = await prepare(id, input);
    const result = await db()
      .transaction.write(({ user: users, contact }) => [
        users.create(user).commit(),
        ...contacts.map((c) => contact.create({ contact: c, userId: id }).commit()),
      ])
      .go();
    if (result.canceled) fail("contact_taken");
    return user;
  }

  /**
   * The account item and its contacts (each must be written create-only, which keeps contacts
   * unique), for writers that put an account into a larger transaction (invitations).
   */
  export async function prepare(id: number, input: NewUser & { invited?: boolean }): Promise<{ user: UserItem; contacts: string[] }> {
    const email = input.email ? normaliseContact(input.email) : undefined;
    const phone = input.phone ? normaliseContact(input.phone) : undefined;
    const user: UserItem = {
      id,
      name: input.name.trim(),
      email,
      phone,
      passwordHash: input.password ? await hashPassword(input.password) : undefined,
      admin: input.admin ?? false,
      superAdmin: input.superAdmin ?? false,
      tokenVersion: 1,
      totpEnabled: false,
      createdAt: Math.floor(Date.now() / 1000),
      ...(input.invited ? { invited: true } : {}),
    };
    return { user, contacts: [email, phone].filter((c): c is string => Boolean(c)) };
  }

  export function allocateUserId(): Promise<number> {
    return allocateId(false);
  }

  async function allocateId(first: boolean): Promise<number> {
    try {
      return await nextId("user", { onlyFirst: first });
    } catch (error) {
      if (first && isConditionFailure(error)) fail("setup_closed");
      throw error;
    }
  }

  export async function count(): Promise<number> {
    return currentId("user");
  }

  export async function get(id: number): Promise<UserItem | undefined> {
    const { data } = await db().entities.user.get({ id }).go();
    return data ?? undefined;
  }

  async function byContact(contact: string): Promise<UserItem | undefined> {
    const { data } = await db().entities.contact.get({ contact: normaliseContact(contact) }).go();
    return data ? get(data.userId) : undefined;
  }

  export function toPublic(user: UserItem): PublicUser {
    return {
      id: user.id,
      name: user.name,
      email: user.email ?? null,
      phone: user.phone ?? null,
      hasAdminRole: user.admin || user.superAdmin,
      hasSuperAdminRole: user.superAdmin,
      totp_enabled: user.totpEnabled,
      password_empty: !user.passwordHash,
    };
  }

  export async function session(user: UserItem, extra: { recoveryTOTP?: boolean } = {}): Promise<Session> {
    const pub = toPublic(user);
    return {
      id: user.id,
      name: user.name,
      email: pub.email,
      phone: pub.phone,
      api_token: await issueToken({ kind: "user", uid: user.id, tokenVersion: user.tokenVersion }),
      hasAdminRole: pub.hasAdminRole,
      hasSuperAdminRole: pub.hasSuperAdminRole,
      recoveryTOTP: extra.recoveryTOTP ?? false,
    };
  }

  /**
   * The login screen's first step. "#<id>" looks up one's own account (the TOTP screen);
   * anything else is an email or phone number.
   */
  export async function lookup(caller: Caller, query: string) {
    let user: UserItem | undefined;
    if (query.startsWith("#")) {
      const id = Number(query.slice(1));
      const allowed = Number.isSafeInteger(id) && "uid" in caller && (caller.uid === id || isAdmin(caller));
      user = allowed ? await get(id) : undefined;
    } else {
      await RateLimit.assertAllowed(loginRules().perClient, caller.ip);
      user = await byContact(query);
      if (!user) await RateLimit.recordFailure(loginRules().perClient, caller.ip);
    }
    if (!user) fail("contact_unknown");
    return {
      id: user.id,
      recognition: maskContact(query.startsWith("#") ? (user.email ?? user.phone ?? "") : normaliseContact(query)),
      password_empty: !user.passwordHash,
      totp_enabled: user.totpEnabled,
    };
  }

  /** With 2FA on, the password and a second factor (a code or a recovery code) are both required. */
  export async function login(caller: Caller, id: number, password: string, totpAuth?: string): Promise<Session> {
    const rules = loginRules();
    const userKey = String(id);
    await RateLimit.assertAllowed(rules.perUser, userKey);
    await RateLimit.assertAllowed(rules.perClient, caller.ip);
    const user = await get(id);
    const passwordOk = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : (await burnPasswordCheck(password), false);
    // Only behind a correct password is the second factor checked (and a code used up).
    const second = passwordOk && user?.totpEnabled ? await Totp.consume(user, totpAuth) : null;
    const ok = passwordOk && (!user?.totpEnabled || second !== null);
    if (!user || !ok) {
      await RateLimit.recordFailure(rules.perUser, userKey);
      await RateLimit.recordFailure(rules.perClient, caller.ip);
      fail(user?.totpEnabled ? "password_or_totp_incorrect" : "password_incorrect");
    }
    await RateLimit.clear(rules.perUser, userKey);
    return session(user, { recoveryTOTP: second === "recovery" });
  }

  /** Emails (or texts) a 6-digit code to an invited account that has no password yet. */
  export async function sendRegistrationCode(caller: Caller, uid: number, contact: string): Promise<void> {
    await RateLimit.assertAllowed(loginRules().perClient, caller.ip);
    const user = await get(uid);
    const normalised = normaliseContact(contact);
    if (!user || (user.email !== normalised && user.phone !== normalised)) {
      await RateLimit.recordFailure(loginRules().perClient, caller.ip);
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
    caller: Caller,
    input: { name: string; password: string; contact: string; vericode: string },
  ): Promise<Session> {
    await RateLimit.assertAllowed(loginRules().perClient, caller.ip);
    const user = await byContact(input.contact);
    if (!user) fail("registration_invalid");
    if (user.passwordHash) fail("already_registered");
    const invite = await assertInviteOpen(user);
    const { data: pending } = await db().entities.verification.get({ userId: user.id, purpose: "register" }).go();
    const live = pending && (pending.expiresAt ?? 0) > Date.now() / 1000 && pending.contact === normaliseContact(input.contact);
    if (!live || pending.codeHash !== (await codeHash(user.id, input.vericode))) {
      await RateLimit.recordFailure(loginRules().perClient, caller.ip);
      if (live && pending.failures + 1 >= VERIFICATION_MAX_FAILURES) {
        await db().entities.verification.delete({ userId: user.id, purpose: "register" }).go();
      } else if (live) {
        await db().entities.verification.patch({ userId: user.id, purpose: "register" }).add({ failures: 1 }).go();
      }
      fail("vericode_incorrect");
    }
    const passwordHash = await hashPassword(input.password);
    const result = await db()
      .transaction.write(({ user: users, verification, invite: invites }) => [
        users
          .patch({ id: user.id })
          .set({ name: input.name.trim(), passwordHash })
          .where((attr, op) => op.notExists(attr.passwordHash))
          .commit(),
        verification.delete({ userId: user.id, purpose: "register" }).commit(),
        ...(invite ? [invites.patch({ userId: user.id }).set({ acceptedAt: Math.floor(Date.now() / 1000) }).commit()] : []),
      ])
      .go();
    if (result.canceled) fail("already_registered");
    return session({ ...user, name: input.name.trim(), passwordHash });
  }

  export interface Changes {
    name?: string;
    email?: string;
    password?: { old?: string; new: string } | null;
  }

  /** Settings and administration. Returns reset when the caller must log in again. */
  export async function update(caller: Caller, id: number, changes: Changes): Promise<{ reset: boolean; user: PublicUser }> {
    if (!isMember(caller)) fail("forbidden");
    const self = caller.uid === id;
    if (!self && !isAdmin(caller)) fail("forbidden");
    const target = self ? caller.user : await get(id);
    if (!target) fail("not_found");
    if (target.superAdmin && !self && caller.kind !== "super") fail("forbidden");
    if (changes.email !== undefined && !isAdmin(caller)) {
      fail("forbidden", { message: "Only an administrator can change an email address." });
    }

    const set: Partial<UserItem> = {};
    if (changes.name !== undefined) set.name = changes.name.trim();
    if (changes.password) {
      if (self) {
        const old = changes.password.old ?? "";
        if (!old || !target.passwordHash || !(await verifyPassword(old, target.passwordHash))) fail("old_password_incorrect");
      }
      set.passwordHash = await hashPassword(changes.password.new);
      set.tokenVersion = target.tokenVersion + 1;
    }
    const newEmail = changes.email === undefined ? undefined : normaliseContact(changes.email);
    if (newEmail !== undefined && newEmail !== target.email) set.email = newEmail;

    if (Object.keys(set).length > 0) {
      const result = await db()
        .transaction.write(({ user: users, contact }) => [
          users.patch({ id }).set(set).commit(),
          ...(set.email
            ? [
                contact.create({ contact: set.email, userId: id }).commit(),
                ...(target.email ? [contact.delete({ contact: target.email }).commit()] : []),
              ]
            : []),
        ])
        .go();
      if (result.canceled) fail(set.email ? "contact_taken" : "internal");
    }
    return { reset: self && Boolean(changes.password), user: toPublic({ ...target, ...set }) };
  }

  /** One account's details, for its owner or an administrator. */
  export async function view(caller: Caller, id: number): Promise<PublicUser> {
    if (!("uid" in caller) || (caller.uid !== id && !isAdmin(caller))) fail("forbidden");
    const user = await get(id);
    return user ? toPublic(user) : fail("not_found");
  }

  export async function list(singleuser?: number): Promise<PublicUser[]> {
    if (singleuser !== undefined) {
      const user = await get(singleuser);
      return user ? [toPublic(user)] : [];
    }
    const { data } = await db().entities.user.query.all({}).go({ pages: "all" });
    return data.map(toPublic);
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

function maskContact(contact: string): string {
  if (contact.startsWith("+")) return contact.slice(0, 3) + "*".repeat(Math.max(0, contact.length - 5)) + contact.slice(-2);
  const [local = "", domain = ""] = contact.split("@");
  return `${local.slice(0, 1)}${"*".repeat(Math.max(1, local.length - 1))}@${domain}`;
}

async function codeHash(uid: number, code: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`register:${uid}:${code}`));
  return Buffer.from(bytes).toString("base64url");
}
