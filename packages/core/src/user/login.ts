import { id as idSchema, loginBody, normaliseContact, type Session } from "@sealwork/contracts";
import { can, type Actor } from "../access";
import { config } from "../config";
import { fail, valid } from "../errors";
import { burnPasswordCheck, verifyPassword } from "../password";
import { RateLimit } from "../rate-limit/rate-limit";
import { Totp } from "../totp/totp";
import type { UserItem } from "./entities";
import { getUser } from "./read";
import { User } from "./user";
import "./errors";

/**
 * The login screen (spec 000 §7): finding the account behind a contact, then the password and,
 * with 2FA on, the second factor. Apart from the account verbs, so that functions that never sign
 * anyone in do not carry the second factor's code.
 */
export namespace Login {
  /** Failed logins per account and per client address (also counted by registration and lookups). */
  export function loginRules() {
    const { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_IP, LOGIN_LOCK_SECONDS } = config();
    return {
      perUser: { scope: "login-user", max: LOGIN_MAX_FAILURES, windowSeconds: LOGIN_LOCK_SECONDS },
      perClient: { scope: "login-client", max: LOGIN_MAX_FAILURES_PER_IP, windowSeconds: LOGIN_LOCK_SECONDS },
    };
  }

  /**
   * The login screen's first step. "#<id>" looks up one's own account (the TOTP screen);
   * anything else is an email or phone number.
   */
  export async function lookup(actor: Actor, query: string) {
    let user: UserItem | undefined;
    if (query.startsWith("#")) {
      const id = Number(query.slice(1));
      const found = Number.isSafeInteger(id) ? await getUser(id) : undefined;
      user = found && can(actor, "read", { kind: "account", id, superAdmin: found.superAdmin }) ? found : undefined;
    } else {
      // Each lookup holds a slot of the client's window while it runs; only unknown contacts keep it.
      user = await RateLimit.guard([[loginRules().perClient, actor.ip]], async () => (await User.byContact(query)) ?? fail("contact_unknown"));
    }
    if (!user) fail("contact_unknown");
    return {
      id: user.id,
      recognition: maskContact(query.startsWith("#") ? (user.email ?? user.phone ?? "") : normaliseContact(query)),
      password_empty: !user.passwordHash,
      totp_enabled: user.totpEnabled,
    };
  }

  /**
   * With 2FA on, the password and a second factor (a code or a recovery code) are both required.
   * The attempt takes a slot of the client's and of the account's window before the password is
   * checked (429 when either is full), so parallel guesses cannot get past the limit. A failure
   * keeps both slots; a success clears the account's window and gives the client's slot back.
   */
  export async function login(actor: Actor, id: number, password: string, totpAuth?: string): Promise<Session> {
    valid(idSchema, id);
    valid(loginBody, { password, totp_auth: totpAuth });
    const rules = loginRules();
    const userKey = String(id);
    const [client] = await RateLimit.takeAll([rules.perClient, actor.ip], [rules.perUser, userKey]);
    const user = await getUser(id);
    const passwordOk = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : (await burnPasswordCheck(password), false);
    // Only behind a correct password is the second factor checked (and a code used up).
    const second = passwordOk && user?.totpEnabled ? await Totp.consume(user, totpAuth) : null;
    const ok = passwordOk && (!user?.totpEnabled || second !== null);
    if (!user || !ok) fail(user?.totpEnabled ? "password_or_totp_incorrect" : "password_incorrect");
    await Promise.all([RateLimit.clear(rules.perUser, userKey), RateLimit.release(client!)]);
    // Said only to whoever knows the password, so that it tells nobody else the account exists.
    if (user.disabled) fail("account_disabled");
    return User.session(user, { recoveryTOTP: second === "recovery" });
  }
}

function maskContact(contact: string): string {
  if (contact.startsWith("+")) return contact.slice(0, 3) + "*".repeat(Math.max(0, contact.length - 5)) + contact.slice(-2);
  const [local = "", domain = ""] = contact.split("@");
  return `${local.slice(0, 1)}${"*".repeat(Math.max(1, local.length - 1))}@${domain}`;
}
