import { db } from "./service";

/**
 * The next value of a named counter (user ids, key ids, later conversation and mote ids): an
 * atomic add, so concurrent callers never share a value. With `onlyFirst` it succeeds only
 * while the counter does not exist yet, failing with DynamoDB's conditional-check error.
 */
export async function nextId(name: string, options: { onlyFirst?: boolean } = {}): Promise<number> {
  const update = db().entities.counter.update({ name }).add({ value: 1 });
  const guarded = options.onlyFirst ? update.where((attr, op) => op.notExists(attr.value)) : update;
  const { data } = await guarded.go({ response: "all_new" });
  return data.value as number;
}

/** The counter's current value: how many ids were handed out (0 before the first). */
export async function currentId(name: string): Promise<number> {
  const { data } = await db().entities.counter.get({ name }).go();
  return data?.value ?? 0;
}
