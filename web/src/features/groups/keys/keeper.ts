import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { call } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import { useUnlockedKeys } from "../../../lib/unlocked-keys";

/** How often an admin's browser looks for members who lack the current key (a pending member's key appeared, a rekey after a leave, a member's key moved). */
export const KEEPER_INTERVAL_MS = 4_000;
/** Spec 001 §7 notes: after a member add, key translation is retried up to 10 times. */
export const KEEPER_ATTEMPTS = 10;

/**
 * The group key keeper, mounted with the signed-in shell: in every group this user administers,
 * the gaps the server names (GET …/wraps/status: members with a key but no wrap of the current
 * epoch) and a rekey a leave left waiting for are completed by this browser, with nobody clicking
 * (group-changes.ts, completeGroupKeys, loaded only when there is something to do). After such a
 * rekey, or a member given the group key, the restricted pages' keys and drive grants follow too
 * (keep-restricted.ts): the member who left on their own held them, the member whose account key
 * has just appeared may read some. A member whose completion fails, and a group whose restricted
 * keys could not be kept, is tried again at most KEEPER_ATTEMPTS times in this page's life. What
 * this browser shows of a group it changed (its epoch, who lacks a wrap) is fetched again.
 */
export function useGroupKeyKeeper(enabled = true): void {
  const holder = useUnlockedKeys();
  const client = useQueryClient();
  useEffect(() => {
    if (!holder || !enabled) return;
    const failures = new Map<string, number>();
    /** Groups rekeyed after a leave whose restricted pages' keys and drive grants are still to follow. */
    const restricted = new Set<number>();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const { groups } = await call("GET /api/users/{id}/groups", { params: { id: holder.uid } });
      for (const group of groups.filter((g) => g.am_admin)) {
        if (stopped) return;
        const status = await call("GET /api/groups/{id}/wraps/status", { params: { id: group.id } });
        const tries = (uid: number) => failures.get(`${group.id}:${uid}`) ?? 0;
        const todo = status.missing_wraps.filter((uid) => tries(uid) < KEEPER_ATTEMPTS);
        // Members whose wrap is for a key they no longer hold: the next epoch, for everyone's current keys.
        const moved = status.log_head >= 0 ? status.moved_keys.filter((uid) => tries(uid) < KEEPER_ATTEMPTS) : [];
        const rekey = status.needs_rekey && status.log_head >= 0 && tries(0) < KEEPER_ATTEMPTS;
        if (todo.length > 0 || moved.length > 0 || rekey) {
          const asked = [...todo, ...moved];
          try {
            const { completeGroupKeys } = await import("./group-changes");
            const done = await completeGroupKeys(group.id, holder, todo, moved);
            for (const uid of asked) if (!done.includes(uid)) failures.set(`${group.id}:${uid}`, tries(uid) + 1);
            if (rekey || done.length > 0) {
              void client.invalidateQueries({ queryKey: queryKeys.groups.ring(group.id, holder.uid) });
              void client.invalidateQueries({ queryKey: queryKeys.groups.wrapsStatus(group.id) });
            }
            // New holders of the group key (a pending member's key appeared) may read restricted pages too.
            if (rekey || done.length > 0) restricted.add(group.id);
          } catch (error) {
            console.warn(`group ${group.id}: completing its keys failed`, error);
            for (const uid of rekey ? [0, ...asked] : asked) failures.set(`${group.id}:${uid}`, tries(uid) + 1);
          }
        }
        // (-1: the tries of the group's restricted keys.)
        if (restricted.has(group.id) && tries(-1) < KEEPER_ATTEMPTS) {
          try {
            const { keepRestrictedKeys } = await import("./keep-restricted");
            await keepRestrictedKeys(group.id, holder);
            restricted.delete(group.id);
          } catch (error) {
            console.warn(`group ${group.id}: keeping its restricted pages' keys failed`, error);
            failures.set(`${group.id}:-1`, tries(-1) + 1);
          }
        }
      }
    };
    const loop = async () => {
      await tick().catch((error: unknown) => console.warn("group key keeper", error));
      if (!stopped) timer = setTimeout(() => void loop(), KEEPER_INTERVAL_MS);
    };
    void loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [holder, enabled, client]);
}
