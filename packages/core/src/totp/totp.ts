import {
  RECOVERY_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  isRecoveryCode,
  normaliseRecoveryCode,
  totpDestroyAdminBody,
  totpDestroyBody,
  totpSetupBody,
} from "@sealwork/contracts";
import { Secret, TOTP } from "otpauth";
import { assertMember, can, requireAdmin, type Actor } from "../access";
import { getUser } from "../user/read";
import { config } from "../config";
import { db } from "../db/service";
import { type UserItem } from "../user/entities";
import { fail, isAppError, valid } from "../errors";
import { RateLimit } from "../rate-limit/rate-limit";
import { isConditionFailure } from "../db/conditions";
import "./errors";
import "../user/entities";

/** A setup's pending secret must be finalized within this time. */
const SETUP_SECONDS = 15 * 60;
/** Codes of the previous and the next time step are accepted too (clock drift). */
const DRIFT_STEPS = 1;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Two-factor login with TOTP (RFC 6238: SHA-1, 6 digits, 30 s), spec 000 §4, §5, §7.
 *
 * The secret has to stay readable to the server (it computes the codes), so it is kept on the
 * user item as a server-side secret and never logged. Replay: the last accepted time step is
 * stored and a code of that step or an older one is refused, with a conditional write so two
 * concurrent logins cannot both use one code. Recovery codes are kept only as salted SHA-256
 * hashes and removed from the set, again conditionally, when one is used.
 */
export namespace Totp {
  export type SecondFactor = "code" | "recovery";

  /** Wrong codes at setup and disable, per account; the login has its own limiter. */
  function attempts(): RateLimit.Rule {
    const { LOGIN_MAX_FAILURES, LOGIN_LOCK_SECONDS } = config();
    return { scope: "totp-user", max: LOGIN_MAX_FAILURES, windowSeconds: LOGIN_LOCK_SECONDS };
  }

  /** Starts a setup: a new pending secret (not active yet) and its otpauth:// URI as a QR code. */
  export async function setup(actor: Actor): Promise<{ qr: string; secret: string }> {
    assertMember(actor);
    if (actor.user.totpEnabled) fail("totp_already_enabled");
    const secret = new Secret({ size: 20 }).base32;
    try {
      await db()
        .entities.user.patch({ id: actor.uid })
        .set({ totpPendingSecret: secret, totpPendingAt: nowSeconds() })
        .where((attr, op) => op.eq(attr.totpEnabled, false))
        .go();
    } catch (error) {
      if (isConditionFailure(error)) fail("totp_already_enabled");
      throw error;
    }
    // The otpauth:// URI the QR code shows: the browser draws it (no image library on the server).
    return { qr: generator(secret, actor.user).toString(), secret };
  }

  /**
   * Finalizes a setup with a code of the pending secret; answers the recovery codes, once. The
   * try takes a slot of the account's window before the code is checked (429 when full); a wrong
   * code keeps it, a success clears the window, any other refusal gives the slot back.
   */
  export async function finalize(actor: Actor, secret: string, code: string): Promise<{ recovery: string[] }> {
    assertMember(actor);
    valid(totpSetupBody, { totp_secret: secret, totp_verify: code });
    const key = String(actor.uid);
    const recovery = await RateLimit.guard([[attempts(), key]], () => enable(actor.user, secret, code), { keep: (error) => isAppError(error, "totp_incorrect") });
    await RateLimit.clear(attempts(), key);
    return { recovery };
  }

  async function enable(user: UserItem, secret: string, code: string): Promise<string[]> {
    if (user.totpEnabled) fail("totp_already_enabled");
    const live = user.totpPendingSecret !== undefined && (user.totpPendingAt ?? 0) + SETUP_SECONDS > nowSeconds();
    if (!live || user.totpPendingSecret !== secret) fail("totp_setup_expired");
    const step = matchingStep(secret, code);
    if (step === null) fail("totp_incorrect");
    const recovery = newRecoveryCodes();
    const salt = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
    const hashes = await Promise.all(recovery.map((c) => recoveryHash(salt, c)));
    try {
      await db()
        .entities.user.patch({ id: user.id })
        .set({ totpEnabled: true, totpSecret: secret, totpLastStep: step, totpRecoverySalt: salt, totpRecovery: hashes })
        .remove(["totpPendingSecret", "totpPendingAt"])
        .where((attr, op) => `${op.eq(attr.totpEnabled, false)} AND ${op.eq(attr.totpPendingAt, user.totpPendingAt ?? 0)}`)
        .go();
    } catch (error) {
      // Another setup started (or finished) meanwhile: this secret is no longer the pending one.
      if (isConditionFailure(error)) fail("totp_setup_expired");
      throw error;
    }
    return recovery;
  }

  /** Switches one's own 2FA off; needs a current code or an unused recovery code (counted as finalize's). */
  export async function destroy(actor: Actor, auth: string): Promise<{ totp_enabled: boolean }> {
    assertMember(actor);
    valid(totpDestroyBody, { totp_auth: auth });
    const key = String(actor.uid);
    await RateLimit.guard(
      [[attempts(), key]],
      async () => {
        if (!actor.user.totpEnabled) fail("totp_not_enabled");
        if (!(await consume(actor.user, auth))) fail("totp_incorrect");
      },
      { keep: (error) => isAppError(error, "totp_incorrect") },
    );
    await switchOff(actor.uid);
    await RateLimit.clear(attempts(), key);
    return { totp_enabled: false };
  }

  /** An instance admin switches off another account's 2FA; only a super admin may for a super admin. */
  export async function destroyAsAdmin(actor: Actor, uid: number): Promise<{ totp_enabled: boolean }> {
    const admin = requireAdmin(actor);
    valid(totpDestroyAdminBody, { uid });
    const target = admin.uid === uid ? admin.user : await getUser(uid);
    if (!target) fail("not_found");
    if (!can(actor, "administrate", { kind: "account", id: uid, superAdmin: target.superAdmin })) fail("forbidden");
    await switchOff(uid);
    return { totp_enabled: false };
  }

  /**
   * Checks the second factor of a login (or a disable) and uses it up: a 6-digit code of a time
   * step newer than the last accepted one, or an unused recovery code (look-alikes normalised).
   * Null when it is missing, wrong, or already used.
   */
  export async function consume(user: UserItem, auth: string | undefined): Promise<SecondFactor | null> {
    if (!auth || !user.totpEnabled || !user.totpSecret) return null;
    const digits = auth.replace(/\s/g, "");
    if (new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(digits)) return (await useStep(user, user.totpSecret, digits)) ? "code" : null;
    if (isRecoveryCode(auth)) return (await useRecoveryCode(user, normaliseRecoveryCode(auth))) ? "recovery" : null;
    return null;
  }

  async function useStep(user: UserItem, secret: string, code: string): Promise<boolean> {
    const step = matchingStep(secret, code);
    if (step === null || step <= (user.totpLastStep ?? -1)) return false;
    try {
      await db()
        .entities.user.patch({ id: user.id })
        .set({ totpLastStep: step })
        .where((attr, op) => `${op.eq(attr.totpEnabled, true)} AND (${op.notExists(attr.totpLastStep)} OR ${op.lt(attr.totpLastStep, step)})`)
        .go();
      return true;
    } catch (error) {
      // A concurrent request accepted this step (or a later one) first.
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async function useRecoveryCode(user: UserItem, code: string): Promise<boolean> {
    if (!user.totpRecoverySalt || !user.totpRecovery?.length) return false;
    const hash = await recoveryHash(user.totpRecoverySalt, code);
    if (!user.totpRecovery.includes(hash)) return false;
    try {
      await db()
        .entities.user.patch({ id: user.id })
        .delete({ totpRecovery: [hash] })
        .where((attr, op) => op.contains(attr.totpRecovery, hash))
        .go();
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async function switchOff(uid: number): Promise<void> {
    await db()
      .entities.user.patch({ id: uid })
      .set({ totpEnabled: false })
      .remove(["totpSecret", "totpPendingSecret", "totpPendingAt", "totpLastStep", "totpRecoverySalt", "totpRecovery"])
      .go();
  }

  function generator(secret: string, user: Pick<UserItem, "email" | "phone" | "name">): TOTP {
    return new TOTP({
      issuer: config().INSTANCE_TITLE,
      label: user.email ?? user.phone ?? user.name,
      algorithm: "SHA1",
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
      secret: Secret.fromBase32(secret),
    });
  }

  /** The time step the code belongs to (now, or one step either side), or null. */
  function matchingStep(secret: string, code: string): number | null {
    const totp = generator(secret, { name: "" });
    const timestamp = Date.now();
    const delta = totp.validate({ token: code, timestamp, window: DRIFT_STEPS });
    return delta === null ? null : totp.counter({ timestamp }) + delta;
  }

  function newRecoveryCodes(): string[] {
    return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
      // 256 is a multiple of the alphabet's 32 characters, so masking keeps the draw uniform (50 bits per code).
      Array.from(crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_LENGTH)), (byte) => RECOVERY_ALPHABET[byte & 31]).join(""),
    );
  }

  async function recoveryHash(salt: string, code: string): Promise<string> {
    const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`totp-recovery:${salt}:${code}`));
    return Buffer.from(bytes).toString("base64url");
  }
}
