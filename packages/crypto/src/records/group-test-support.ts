import { generateSymmetricKey } from "../aead";
import type { Key } from "../primitives";
import { type GroupRecord, createGroupRecord, sealGroupKey, verifyGroupRecord } from "./group-key";
import { verifyIdentity } from "./identity-chain";
import { type IdentityKeys, type KeysOf, type VerifiedIdentity, keyLookup } from "./identity-keys";
import { type MembershipAction, type SignedMembershipEntry, type VerifiedLog, appendToLog, createLog, membershipContainer, verifyLog } from "./membership-log";
import { T0, World } from "./v2-test-support";

/** Helpers for the group tests: a group of a small instance. Not exported from index.ts. */

export const GROUP_ID = 7;
export const ref = (me: IdentityKeys) => ({ userId: me.userId, keyId: me.keyId });

/**
 * Group 7: Alice (1, the root) created it and added Bob (2) and Carol (3), all at epoch 0 with
 * key `key`; Dave (4) and Mallory (5) are users of the instance outside it.
 */
export async function groupSetting() {
  const world = await World.create();
  for (const user of [2, 3, 4, 5]) await world.invite(1, user);
  const identities = new Map<number, VerifiedIdentity>();
  for (const user of [1, 2, 3, 4, 5]) identities.set(user, await verifyIdentity(world.chain(user), world.trust));
  const keysOf: KeysOf = keyLookup([...identities.values()]);
  const [alice, bob, carol, dave, mallory] = (await Promise.all([1, 2, 3, 4, 5].map((user) => world.me(user)))) as IdentityKeys[];
  const container = membershipContainer("group", GROUP_ID);
  const entries: SignedMembershipEntry[] = [await createLog(container, alice!, T0)];
  const log = async () => verifyLog(container, entries, keysOf);
  /** Appends a signed change to the log and answers the verified log after it. */
  const change = async (action: Exclude<MembershipAction, "create">, subject: IdentityKeys | null, author: IdentityKeys = alice!): Promise<VerifiedLog> => {
    entries.push(await appendToLog(await log(), { action, subject: subject && ref(subject), at: T0 + entries.length }, author));
    return log();
  };
  await change("add", bob!);
  const initial = await change("add", carol!);
  const key = await generateSymmetricKey();
  const signed = await createGroupRecord(key, initial.members, initial, alice!);
  const record = await verifyGroupRecord(signed, initial, keysOf);
  /** A copy of `k` for `to`, sealed by `sealer` against `group`. */
  const copy = async (to: number, sealer: IdentityKeys = alice!, group: GroupRecord = record, k: Key = key, verified?: VerifiedLog) =>
    sealGroupKey(k, group, verified ?? (await log()), identities.get(to)!, sealer);
  return { world, identities, keysOf, alice: alice!, bob: bob!, carol: carol!, dave: dave!, mallory: mallory!, container, entries, log, change, key, signed, record, copy, initial };
}
