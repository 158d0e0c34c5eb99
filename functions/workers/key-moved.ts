import { DrivePermissions } from "@sealwork/core/drive/permissions";
import { GroupKeys } from "@sealwork/core/group/keys";
import { PageKeys } from "@sealwork/core/group/page-keys";
import { worker } from "@sealwork/core/http/worker";
import { keyChangedAt } from "@sealwork/core/keys/current";

/**
 * A user's account key moved (POST /api/keypairs in place of a key they held): in each of their
 * groups, the copies of restricted pages' keys and the drive grants they hold are for the old key
 * (they stop counting as holders, so the upkeep seals for the new one), and then their membership
 * says so (the group key's next epoch is due). What was sealed for them since the key moved (their
 * own renewing browser's) stays. Each step may run again: a retried job repeats none.
 */
export const handler = worker("key-moved", async ({ userId, movedAt }) => {
  const since = movedAt ?? (await keyChangedAt(userId));
  for (const groupId of await GroupKeys.groupsOf(userId)) {
    await PageKeys.readerKeyMoved(groupId, userId, since);
    await DrivePermissions.granteeKeyMoved(groupId, userId, since);
  }
  await GroupKeys.keyMoved(userId, since);
});
