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

/** Whether someone could be sealed for: a current, valid, public (not an invitation's temporary) key. */
export function sealable(key: Awaited<ReturnType<typeof currentKey>>): boolean {
  return key?.valid === true && key.item.type === "public";
}
