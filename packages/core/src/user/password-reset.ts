import { normaliseContact, passwordReset, verificationRequest, type Session } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { config } from "../config";
import { writeTransaction, db } from "../db/service";
import { fail, isAppError, valid } from "../errors";
import { Mail } from "../mail";
import { hashPassword } from "../password";
import { RateLimit } from "../rate-limit/rate-limit";
import { Totp } from "../totp/totp";
import { VerificationCode } from "../verification/verification";
import type { UserItem } from "./entities";
import { getUser } from "./read";
import { Login } from "./login";
import { User } from "./user";
import "../totp/errors";
import "./entities";
import "./errors";

/**
 * A forgotten password (spec 000 §7, `POST api/verification/forgot`): a 6-digit code to the
 * account's email or phone, then a new password with it. Only the password changes: the account
 * key and its backup stay as they are (they are sealed by the secure code, which the server never
 * has), so the user still needs their secure code afterwards. The token version rises, so every
 * older token stops.
 */
export namespace PasswordReset {
  /** Code requests from one client address, whatever they find (each may send a message). */
  function requestRule(): RateLimit.Rule {
    const { LOGIN_MAX_FAILURES_PER_IP, LOGIN_LOCK_SECONDS } = config();
    return { scope: "forgot-client", max: LOGIN_MAX_FAILURES_PER_IP, windowSeconds: LOGIN_LOCK_SECONDS };
  }

  /**
   * POST /api/verification/forgot: sends a code if `contact` is the account's and the account has
   * a password and is not disabled; answers the same either way, so it tells no more than the
   * login's lookup already does. Counted per client (every request) and per account (every code
   * sent: VERIFICATION_MAX_CODES an hour); 429 past either.
   */
  export async function request(actor: Actor, uid: number, contact: string): Promise<{ accepted: true }> {
    valid(verificationRequest, { uid, contact });
    await RateLimit.take(requestRule(), actor.ip);
    const normalised = normaliseContact(contact);
    const user = await getUser(uid);
    if (user?.passwordHash && !user.disabled && (user.email === normalised || user.phone === normalised)) {
      const code = await VerificationCode.issue(uid, "reset", normalised);
      const { INSTANCE_TITLE, APP_URL } = config();
      await Mail.send({
        to: normalised,
        channel: normalised.startsWith("+") ? "sms" : "email",
        subject: `Your ${INSTANCE_TITLE} password reset code`,
        text:
          `Your code to set a new password is ${code}.\n\nEnter it on ${APP_URL} within one hour. ` +
          `If you did not ask for it, ignore this message: your password stays as it is.\n\n` +
          `Your secure code does not change: you still need it to open your encrypted data.`,
      });
    }
    return { accepted: true };
  }

  /**
   * POST /api/users/reset: the code and a new password (with 2FA on, a second factor too).
   * Unknown contacts and wrong codes count against the client like failed logins, and every try
   * against the account's tries (VerificationCode.check, before the comparison): a wrong second
   * factor behind a right code is a try too, so the 2FA code cannot be guessed here either. One
   * transaction sets the password, raises the token version and uses the code up (so two
   * concurrent resets with one code cannot both succeed); the answer is a session like a login's.
   */
  export async function reset(actor: Actor, body: z.input<typeof passwordReset>): Promise<Session> {
    const input = valid(passwordReset, body);
    const contact = normaliseContact(input.contact);
    const rules = Login.loginRules();
    return RateLimit.guard(
      [[rules.perClient, actor.ip]],
      async () => {
        const user = await User.byContact(contact);
        // An unknown contact, or one without a password to replace, reads like a wrong code.
        if (!user?.passwordHash) fail("vericode_incorrect");
        if (!(await VerificationCode.check(user.id, "reset", contact, input.vericode))) fail("vericode_incorrect");
        if (user.disabled) fail("account_disabled");
        const second = user.totpEnabled ? await Totp.consume(user, input.totp_auth) : null;
        if (user.totpEnabled && second === null) fail("totp_incorrect");
        const passwordHash = await hashPassword(input.password);
        const { canceled, reasons } = await writeTransaction((tx) => [
          tx.user
            .patch({ id: user.id })
            .set({ passwordHash })
            .add({ tokenVersion: 1 })
            .where((attr, op) => `${op.notExists(attr.disabled)} OR ${op.eq(attr.disabled, false)}`)
            .commit(),
          VerificationCode.consumption(tx, user.id, "reset"),
        ]);
        if (canceled) fail(reasons[0] === "ConditionalCheckFailed" ? "account_disabled" : "vericode_incorrect");
        await Promise.all([VerificationCode.used(user.id, "reset"), RateLimit.clear(rules.perUser, String(user.id))]);
        // Read back strongly: the session carries the token version just raised.
        const { data } = await db().entities.user.get({ id: user.id }).go({ consistent: true });
        return User.session(data as UserItem, { recoveryTOTP: second === "recovery" });
      },
      { keep: (error) => isAppError(error, "vericode_incorrect", "totp_incorrect") },
    );
  }
}
