import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { queryKeys } from "../../../lib/query-keys";
import { useUnlockedKeys } from "../../../lib/unlocked-keys";
import type { GroupView } from "../get-group";

/** Groups this page has started the keys of (once per page load: a failure is not tried again in a loop). */
const started = new Set<number>();

/**
 * A group is made in two calls (POST /api/groups, then its keys: keys/create-group.ts). When its
 * creator's browser went away between them, the group has no log; the creator's browser makes its
 * keys the next time they open it (group-changes.ts, startMissingGroupKeys: the log, the epoch-0
 * key, the record and the wraps, as at creation). Only the creator: any other admin would race a
 * creation still under way.
 */
export function useStartMissingKeys(group: GroupView | undefined): void {
  const holder = useUnlockedKeys();
  const client = useQueryClient();
  useEffect(() => {
    if (!holder || !group || group.log_head >= 0 || !group.am_admin || group.creator_id !== holder.uid || started.has(group.id)) return;
    started.add(group.id);
    import("./group-changes")
      .then(({ startMissingGroupKeys }) => startMissingGroupKeys(group.id, holder))
      .then(
        () => client.invalidateQueries({ queryKey: queryKeys.groups.one(group.id) }),
        (error: unknown) => console.warn(`group ${group.id}: starting its keys failed`, error),
      );
  }, [holder, group, client]);
}
