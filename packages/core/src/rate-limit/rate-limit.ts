import { isConditionFailure } from "../db/conditions";
import { db } from "../db/service";
import { fail, type ErrorCode } from "../errors";
import "./entities";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** How often `take` goes round when concurrent requests keep changing the window under it. */
const TAKE_ROUNDS = 4;

/**
 * Attempt counters with a sliding window, kept by atomic conditional writes only: a request takes
 * a slot BEFORE it evaluates anything (`take`), so however many arrive at once, at most `max` are
 * evaluated in a window and the rest get 429. Each slot taken pushes the window's end out, so a
 * blocked actor waits the whole window after their last counted try. What does not count (a
 * found pickup, a correct password) gives its slot back (`release`) or clears the window
 * (`clear`), as its caller's rule says.
 */
export namespace RateLimit {
  export interface Rule {
    scope: string;
    max: number;
    windowSeconds: number;
    /** The refusal when the window is full (default too_many_attempts, whose text says one minute). */
    refusal?: ErrorCode;
  }

  /** A slot held in one rule's window for one key. */
  export interface Slot {
    rule: Rule;
    key: string;
  }

  /** The attempts counted in the key's live window (0 without one). */
  export async function failures(rule: Rule, key: string): Promise<number> {
    const { data } = await db().entities.attempt.get({ scope: rule.scope, key }).go({ consistent: true });
    return data && (data.expiresAt ?? 0) > nowSeconds() ? data.count : 0;
  }

  /**
   * Counts one attempt if the key's window has room, else throws the rule's refusal (429).
   * One conditional update adds to a live window below `max`; when that fails, a conditional put
   * starts a window where none is live (none yet, or an expired one the TTL has not removed).
   * When both fail another request changed the window meanwhile: read it and go round again.
   */
  export async function take(rule: Rule, key: string): Promise<Slot> {
    for (let round = 0; round < TAKE_ROUNDS; round++) {
      const now = nowSeconds();
      const expiresAt = now + rule.windowSeconds;
      try {
        await db()
          .entities.attempt.update({ scope: rule.scope, key })
          .add({ count: 1 })
          .set({ expiresAt })
          .where((attr, op) => `${op.gt(attr.expiresAt, now)} AND ${op.lt(attr.count, rule.max)}`)
          .go();
        return { rule, key };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        await db()
          .entities.attempt.put({ scope: rule.scope, key, count: 1, expiresAt })
          .where((attr, op) => `${op.notExists(attr.count)} OR ${op.lte(attr.expiresAt, now)}`)
          .go();
        return { rule, key };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      // A live window exists; if it is full, that is the answer.
      if ((await failures(rule, key)) >= rule.max) break;
    }
    // Full, or changed under us TAKE_ROUNDS times in a row: refused either way (never let through).
    return fail(rule.refusal ?? "too_many_attempts");
  }

  /**
   * Takes a slot of each rule in order; when one has no room, gives back those already taken
   * (a refused request counts nowhere) and throws 429.
   */
  export async function takeAll(...wanted: [Rule, string][]): Promise<Slot[]> {
    const taken: Slot[] = [];
    try {
      for (const [rule, key] of wanted) taken.push(await take(rule, key));
      return taken;
    } catch (error) {
      await release(...taken);
      throw error;
    }
  }

  /** Gives slots back: the attempts they counted turned out not to count (a hit, a success). */
  export async function release(...slots: Slot[]): Promise<void> {
    await Promise.all(
      slots.map(async ({ rule, key }) => {
        try {
          await db()
            .entities.attempt.update({ scope: rule.scope, key })
            .add({ count: -1 })
            .where((attr, op) => op.gt(attr.count, 0))
            .go();
        } catch (error) {
          // The window was cleared or removed meanwhile: nothing to give back.
          if (!isConditionFailure(error)) throw error;
        }
      }),
    );
  }

  /** Forgets the key's window (a successful login clears its account's failures). */
  export async function clear(rule: Rule, key: string): Promise<void> {
    await db().entities.attempt.delete({ scope: rule.scope, key }).go();
  }

  /**
   * Runs `attempt` holding a slot of each rule (429 when one has no room). `keep` says, for the
   * error the attempt ended in, whether it counts (a wrong password does; an expired setup does
   * not); an attempt that succeeds counts unless `countSuccess`.
   */
  export async function guard<T>(
    wanted: [Rule, string][],
    attempt: (slots: Slot[]) => Promise<T>,
    options: { keep?: (error: unknown) => boolean; countSuccess?: boolean } = {},
  ): Promise<T> {
    const slots = await takeAll(...wanted);
    let result: T;
    try {
      result = await attempt(slots);
    } catch (error) {
      if (!(options.keep?.(error) ?? true)) await release(...slots);
      throw error;
    }
    if (!options.countSuccess) await release(...slots);
    return result;
  }
}
