import { getEvery } from "../db/batch";
import { db } from "../db/service";
import type { KeypairItem } from "./entities";
import "./entities";

/**
 * A user's current key and whether it is valid: what other domains ask (a group's members without
 * a key), kept apart from the key verbs so that asking does not bring the crypto package along.
 */
export async function currentKey(uid: number): Promise<{ item: KeypairItem; valid: boolean } | undefined> {
  const { data: head } = await db().entities.keyhead.get({ userId: uid }).go();
  if (!head) return undefined;
  const { data: item } = await db().entities.keypair.get({ id: head.keyId }).go();
  if (!item) throw new Error(`key head of user ${uid} points at missing key ${head.keyId}`);
  return { item, valid: head.valid };
}

/**
 * The current keys of many users at once (administration's lists): two batch reads of up to 100
 * items per request (the heads, then the keys they point at), not a look-up per user. Users
 * without a key are absent.
 */
export async function currentKeys(uids: readonly number[]): Promise<Map<number, { item: KeypairItem; valid: boolean }>> {
  if (uids.length === 0) return new Map();
  const heads = await getEvery((keys) => db().entities.keyhead.get(keys).go(), uids.map((userId) => ({ userId })));
  if (heads.length === 0) return new Map();
  const items = await getEvery((keys) => db().entities.keypair.get(keys).go(), heads.map((head) => ({ id: head.keyId })));
  const byId = new Map(items.map((item) => [item.id, item]));
  const keys = new Map<number, { item: KeypairItem; valid: boolean }>();
  for (const head of heads) {
    const item = byId.get(head.keyId);
    if (item) keys.set(head.userId, { item, valid: head.valid });
  }
  return keys;
}

/** Whether someone could be sealed for: a current, valid, public (not an invitation's temporary) key. */
export function sealable(key: Awaited<ReturnType<typeof currentKey>>): boolean {
  return key?.valid === true && key.item.type === "public";
}
