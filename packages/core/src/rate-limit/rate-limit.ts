import { isConditionFailure } from "../db/conditions";
import { db } from "../db/service";
import { fail } from "../errors";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Failed-attempt counters with a sliding window: each failure pushes the window's end out,
 * so a blocked actor waits the whole window after their last try.
 */
export namespace RateLimit {
  export interface Rule {
    scope: string;
    max: number;
    windowSeconds: number;
  }

  export async function failures(rule: Rule, key: string): Promise<number> {
    const { data } = await db().entities.attempt.get({ scope: rule.scope, key }).go();
    return data && (data.expiresAt ?? 0) > nowSeconds() ? data.count : 0;
  }

  /** Throws too_many_attempts (429) while the key has used up its failures. */
  export async function assertAllowed(rule: Rule, key: string): Promise<void> {
    if ((await failures(rule, key)) >= rule.max) fail("too_many_attempts");
  }

  export async function recordFailure(rule: Rule, key: string): Promise<void> {
    const now = nowSeconds();
    const expiresAt = now + rule.windowSeconds;
    try {
      await db()
        .entities.attempt.update({ scope: rule.scope, key })
        .add({ count: 1 })
        .set({ expiresAt })
        .where((attr, op) => op.gt(attr.expiresAt, now))
        .go();
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // No live window (none yet, or an expired one TTL has not removed): start a new one.
      await db().entities.attempt.put({ scope: rule.scope, key, count: 1, expiresAt }).go();
    }
  }

  export async function clear(rule: Rule, key: string): Promise<void> {
    await db().entities.attempt.delete({ scope: rule.scope, key }).go();
  }
}
