import { call } from "../../../lib/api";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { heldDriveItems, regrantHeldItems } from "../drive/item-permissions";
import type { DriveNode } from "../drive/drive-tree";
import { type HeldPageKey, heldPageKeys, sealOwnPageKeys } from "../records/page-keys";
import { renewGroupKey } from "./group-changes";
import { openGroupRing } from "./group-ring";

/**
 * A group the renewing user is the only administrator of, with what they alone can carry over to
 * their new key: the restricted pages' keys and the restricted drive items' keys they hold,
 * opened with the held key.
 */
export interface SoleGroup {
  id: number;
  pages: HeldPageKey[];
  items: DriveNode[];
}

/**
 * Before the signed-in user's new key is registered (the key-moved job takes copies and grants
 * for the old key away once it is): the groups they are the only administrator of, per each
 * group's verified log, with their restricted pages' and drive items' keys opened. A group whose
 * restricted keys do not open here is still renewed (renewGroupKeys), without them.
 */
export async function readSoleGroups(holder: UnlockedKeys): Promise<SoleGroup[]> {
  const { groups } = await call("GET /api/users/{id}/groups", { params: { id: holder.uid } });
  const sole: SoleGroup[] = [];
  for (const group of groups.filter((g) => g.am_admin)) {
    const ring = await openGroupRing(group.id, holder).catch(() => null);
    if (!ring || ring.log.admins.length !== 1 || ring.log.admins[0] !== holder.uid) continue;
    const [pages, items] = await Promise.all([
      heldPageKeys(ring, holder).catch((error: unknown) => (console.warn(`group ${group.id}: restricted pages' keys not read`, error), [])),
      heldDriveItems(group.id, holder).catch((error: unknown) => (console.warn(`group ${group.id}: restricted drive items not read`, error), [])),
    ]);
    sole.push({ id: group.id, pages, items });
  }
  return sole;
}

/**
 * While the signed-in user renews their account key (the new key registered, the held one still
 * in memory): in every group they are the only administrator of, the next epoch with their own
 * wrap for the new key (renewGroupKey), then their own copies of the restricted pages' keys sealed
 * for it and the restricted drive items' keys granted again. Groups with other administrators
 * follow as for any key that moved: the key-moved job and those administrators' keepers
 * (keeper.ts). Answers how many groups were renewed.
 */
export async function renewGroupKeys(sole: readonly SoleGroup[], holder: UnlockedKeys, renewedTo: UnlockedKeys, progress?: (done: number, total: number) => void): Promise<number> {
  let renewed = 0;
  for (const [done, group] of sole.entries()) {
    progress?.(done, sole.length);
    try {
      if (!(await renewGroupKey(group.id, holder, renewedTo))) continue;
      renewed++;
      await sealOwnPageKeys(group.id, group.pages, renewedTo);
      await regrantHeldItems(group.id, group.items, renewedTo);
    } catch (error) {
      console.warn(`group ${group.id} keeps its keys until another administrator's browser renews them`, error);
    }
  }
  progress?.(sole.length, sole.length);
  return renewed;
}
