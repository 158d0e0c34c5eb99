import { call } from "../../../lib/api";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { renewGroupKey } from "./group-changes";

/**
 * While the signed-in user renews their account key (the new key registered, the held one still
 * in memory): the next epoch of every group they are the only administrator of, with their own
 * wrap for the new key (renewGroupKey). Groups with other administrators follow as for any key
 * that moved: the key-moved job and those administrators' keepers (keeper.ts). Answers how many
 * were renewed.
 */
export async function renewGroupKeys(holder: UnlockedKeys, renewedTo: UnlockedKeys, progress?: (done: number, total: number) => void): Promise<number> {
  const { groups } = await call("GET /api/users/{id}/groups", { params: { id: holder.uid } });
  const mine = groups.filter((g) => g.am_admin);
  let renewed = 0;
  for (const [done, group] of mine.entries()) {
    progress?.(done, mine.length);
    try {
      if (await renewGroupKey(group.id, holder, renewedTo)) renewed++;
    } catch (error) {
      console.warn(`group ${group.id} keeps its key until another administrator's browser renews it`, error);
    }
  }
  progress?.(mine.length, mine.length);
  return renewed;
}
