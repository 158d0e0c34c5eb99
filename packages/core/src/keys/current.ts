import { getEvery } from "../db/batch";
import { db, type TransactionEntities } from "../db/service";
import type { KeypairItem } from "./entities";
import "./entities";
import "./errors";

/** The head's signing key id while a temporary key is current: no v2 key id (22 characters) equals it. */
export const TEMP_SIGNER = "temp";

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

/** When the user's current key became theirs (ms; the key-moved job of a message that does not say). */
export async function keyChangedAt(uid: number): Promise<number> {
  const { data: head } = await db().entities.keyhead.get({ userId: uid }).go();
  return head ? head.updatedAt * 1000 : Date.now();
}

/** Whether someone could be sealed for: a current, valid, public (not an invitation's temporary) key. */
export function sealable(key: Awaited<ReturnType<typeof currentKey>>): boolean {
  return key?.valid === true && key.item.type === "public";
}

/**
 * A transaction item that holds only while `signingKeyId` is the key `uid` may sign with now:
 * writes signed or sealed by a key the user replaced (renewed in another browser, or reset by an
 * administrator) are refused (`sender_key_stale`), and their client asks for the new key.
 */
export function signerCheck(tx: TransactionEntities, uid: number, signingKeyId: string) {
  return tx.keyhead
    .check({ userId: uid })
    .where((attr, op) => `${op.notExists(attr.signingKeyId)} OR ${op.eq(attr.signingKeyId, signingKeyId)}`)
    .commit();
}

/**
 * Of these users, those whose current key is an invitation's temporary key (not taken over yet,
 * and not a key reset's): three batch reads however many (the heads, their keys, the resets).
 */
export async function awaitingTakeover(uids: number[]): Promise<Set<number>> {
  const unique = [...new Set(uids)];
  if (!unique.length) return new Set();
  const heads = await getEvery((keys) => db().entities.keyhead.get(keys).go(), unique.map((userId) => ({ userId })));
  const maybe = heads.filter((h) => h.signingKeyId === undefined || h.signingKeyId === TEMP_SIGNER);
  if (!maybe.length) return new Set();
  const [keys, resets] = await Promise.all([
    getEvery((ids) => db().entities.keypair.get(ids).go(), maybe.map((h) => ({ id: h.keyId }))),
    getEvery((ids) => db().entities.keyreset.get(ids).go(), maybe.map((h) => ({ userId: h.userId }))),
  ]);
  const reset = new Set(resets.map((r) => r.userId));
  return new Set(keys.filter((k) => k.type === "temp" && !reset.has(k.userId)).map((k) => k.userId));
}
