import { fail } from "../errors";

/** How many times the keys DynamoDB handed back unread (throttled) are asked for again. */
const BATCH_TRIES = 5;

/**
 * A batch read of every key: a batch get answers what it could and hands back the rest as
 * unprocessed, which ElectroDB does not ask for again. Asked again a few times; `internal` when
 * some are still unread (a list that silently left accounts out would be wrong, not slow).
 */
export async function getEvery<K, T>(read: (keys: K[]) => Promise<{ data: T[]; unprocessed: unknown[] }>, keys: K[]): Promise<T[]> {
  const found: T[] = [];
  let left = keys;
  for (let attempt = 0; left.length > 0; attempt++) {
    if (attempt >= BATCH_TRIES) fail("internal");
    const { data, unprocessed } = await read(left);
    found.push(...data);
    left = unprocessed as K[];
  }
  return found;
}
