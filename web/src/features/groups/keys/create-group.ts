import { call } from "../../../lib/api";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { startGroupKeys } from "./group-changes";

export interface NewGroupInput {
  name: string;
  members: number[];
}

/**
 * POST /api/groups (super administrators: the group, its reserved pages and admin role, its
 * members), then the group's keys made in this browser (group-changes.ts, startGroupKeys): the
 * log, the epoch-0 key, the record and a wrap for each member with a key; the others are pending.
 */
export async function createGroup(holder: UnlockedKeys, { name, members }: NewGroupInput) {
  const group = await call("POST /api/groups", { body: { name: name.trim(), members } });
  const pending = await startGroupKeys(group.id, holder, members);
  return { group, pending };
}
