import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { keepDriveGrants } from "../drive/item-permissions";
import { type UpkeepProgress, keepGroupPageKeys } from "../records/page-keys";

/**
 * After a change of who is in the group or holds its roles, in an administrator's browser: the
 * keys of the group's restricted pages (progress by pages), then its restricted drive items' grants
 * (docs/protocol.md, "Restricted pages", "Restricted drive items"). Both are tried; the first
 * failure is thrown after both.
 */
export async function keepRestrictedKeys(groupId: number, holder: UnlockedKeys, onProgress?: UpkeepProgress): Promise<void> {
  const failures: unknown[] = [];
  await keepGroupPageKeys(groupId, holder, onProgress).catch((error: unknown) => void failures.push(error));
  await keepDriveGrants(groupId, holder).catch((error: unknown) => void failures.push(error));
  if (failures.length > 0) throw failures[0];
}
