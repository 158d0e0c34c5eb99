import { config } from "../config";
import { db, type TransactionEntities } from "../db/service";
import { RateLimit } from "../rate-limit/rate-limit";
import "../user/errors";
import "./entities";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The 6-digit codes sent to an account's email or phone before an anonymous caller may set its
 * password: an invited account's registration (spec 000 §7) and a forgotten password. A code is
 * valid for an hour; a new one replaces the pending one. Both what can be asked and what can be
 * guessed are limited per account and purpose, in sliding hours, by the rate limiter's atomic
 * writes: VERIFICATION_MAX_CODES codes sent, and MAX_TRIES tries of whichever code is pending,
 * each counted BEFORE the comparison. Asking for a new code therefore does not give a guesser new
 * tries. Every try counts until one gets through; the change it allows clears the tries (`used`).
 */
export namespace VerificationCode {
  export type Purpose = "register" | "reset";
  export const VALID_SECONDS = 3600;
  /** Tries of an account's codes (of one purpose) in a sliding VALID_SECONDS. */
  export const MAX_TRIES = 5;

  function codesRule(purpose: Purpose): RateLimit.Rule {
    return { scope: `${purpose}-code`, max: config().VERIFICATION_MAX_CODES, windowSeconds: VALID_SECONDS, refusal: "verification_limit" };
  }

  function triesRule(purpose: Purpose): RateLimit.Rule {
    return { scope: `${purpose}-tries`, max: MAX_TRIES, windowSeconds: VALID_SECONDS, refusal: "verification_limit" };
  }

  /** A new code for the account and contact, replacing any pending one; 429 past the account's allowance. */
  export async function issue(userId: number, purpose: Purpose, contact: string): Promise<string> {
    await RateLimit.take(codesRule(purpose), String(userId));
    const code = String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000).padStart(6, "0");
    await db()
      .entities.verification.put({ userId, purpose, contact, codeHash: await codeHash(purpose, userId, code), expiresAt: nowSeconds() + VALID_SECONDS })
      .go();
    return code;
  }

  /**
   * Whether `code` is the pending code for this account, purpose and contact (a missing, expired
   * or used one is simply wrong). The try is counted first: 429 `verification_limit` when the
   * account's tries are used up, whatever the code. A right code stays pending until
   * `consumption` removes it with the change it allows.
   */
  export async function check(userId: number, purpose: Purpose, contact: string, code: string): Promise<boolean> {
    await RateLimit.take(triesRule(purpose), String(userId));
    const { data } = await db().entities.verification.get({ userId, purpose }).go({ consistent: true });
    return data !== null && (data.expiresAt ?? 0) > nowSeconds() && data.contact === contact && data.codeHash === (await codeHash(purpose, userId, code));
  }

  /** The transaction item that uses the code up: it must still be there, so a code sets a password once. */
  export function consumption(tx: TransactionEntities, userId: number, purpose: Purpose) {
    return tx.verification
      .delete({ userId, purpose })
      .where((attr, op) => op.exists(attr.codeHash))
      .commit();
  }

  /** After the change went through: the account's tries start afresh. */
  export async function used(userId: number, purpose: Purpose): Promise<void> {
    await RateLimit.clear(triesRule(purpose), String(userId));
  }
}

async function codeHash(purpose: VerificationCode.Purpose, userId: number, code: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${purpose}:${userId}:${code}`));
  return Buffer.from(bytes).toString("base64url");
}
