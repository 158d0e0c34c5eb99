import type { UnlockedKeys } from "../../lib/unlocked-keys";

/**
 * The verified rings of one kind of container (conversations, groups) kept in this page's memory
 * by container id, for the keys that opened them: other keys (a logout, a moved key) start afresh.
 * A failure is not kept: the next open verifies afresh.
 */
export function ringCache<R extends { log: { head: { seq: number } } }>() {
  const rings = new Map<number, Promise<R>>();
  let ringsFor: UnlockedKeys | null = null;
  const forget = (id: number) => void rings.delete(id);
  return {
    /** The ring held for `id`, else the one `load` verifies (kept while it is not forgotten). */
    open(id: number, holder: UnlockedKeys, load: () => Promise<R>): Promise<R> {
      if (ringsFor !== holder) {
        rings.clear();
        ringsFor = holder;
      }
      let found = rings.get(id);
      if (!found) {
        found = load();
        found.catch(() => rings.delete(id));
        rings.set(id, found);
      }
      return found;
    },
    /** Whether a ring for `id` is held (or being verified). */
    has: (id: number) => rings.has(id),
    /** Forgets the ring of `id` (after a change of its members, or news of one). */
    forget,
    /**
     * Whether the ring held for `id` is behind the log head seq the server names (a poll's or a
     * page's `log_seq`: members or admins changed with no message after it); if so it is
     * forgotten, so that the next open fetches the log and verifies it afresh. The server's word
     * only says when to look: what the look finds is verified as on any open.
     */
    async behind(id: number, seq: number): Promise<boolean> {
      const found = rings.get(id);
      const ring = found ? await found.catch(() => undefined) : undefined;
      if (!ring || ring.log.head.seq >= seq) return false;
      if (rings.get(id) === found) forget(id);
      return true;
    },
  };
}
