import { TABLE } from "./table";

/**
 * What every entity of the one table shares: the service name and the index shapes, whose
 * key fields come from TABLE. Domains declare their entities with these (in their own
 * entities.ts); ElectroDB composes every key from the composite attributes, so no code outside
 * the entity definitions ever builds a key by hand.
 */
export const SERVICE = "sealwork";
export const primary = { pk: { field: TABLE.partitionKey }, sk: { field: TABLE.sortKey } } as const;
export const gsi1 = { index: "gsi1", pk: { field: TABLE.indexes.gsi1.partitionKey }, sk: { field: TABLE.indexes.gsi1.sortKey } } as const;

/** The TTL attribute (epoch seconds): DynamoDB deletes the item some time after it passes. */
export const ttl = { type: "number", field: TABLE.ttlAttribute } as const;
export const now = () => Math.floor(Date.now() / 1000);

/**
 * When an item sealed for someone's account key was written (server time, milliseconds), set
 * on every put: the key-moved job tells a copy sealed before the key moved (for the old key)
 * from one sealed since (for the new one) by it. Absent on items written before it existed.
 */
export const sealedAt = { type: "number", default: () => Date.now() } as const;

/** Whether an item with `sealedAt` was written since `movedAt` (so for the key the user holds now). */
export const sealedSince = (item: { at?: number } | null | undefined, movedAt: number): boolean => item?.at !== undefined && item.at >= movedAt;

/** An index of the primary keys or of gsi1 on these composite attributes (the group entities use it: one shape, written once). */
export function keyed<I extends typeof primary | typeof gsi1, const P extends readonly string[], const S extends readonly string[]>(on: I, pk: P, sk: S) {
  return { ...on, pk: { ...on.pk, composite: pk }, sk: { ...on.sk, composite: sk } } as Omit<I, "pk" | "sk"> & { pk: I["pk"] & { composite: P }; sk: I["sk"] & { composite: S } };
}
