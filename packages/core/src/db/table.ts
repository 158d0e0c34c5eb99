/**
 * The one table's physical shape. ElectroDB entities, the local runtime's CreateTable and the
 * CDK table construct are all derived from this, so index and attribute names cannot drift.
 */
export const TABLE = {
  partitionKey: "pk",
  sortKey: "sk",
  /** Epoch seconds; DynamoDB deletes items some time after this passes (reads must still check). */
  ttlAttribute: "expiresAt",
  indexes: {
    gsi1: { partitionKey: "gsi1pk", sortKey: "gsi1sk" },
    gsi2: { partitionKey: "gsi2pk", sortKey: "gsi2sk" },
  },
} as const;

export type IndexName = keyof typeof TABLE.indexes;

/** Every key attribute, for CreateTable's AttributeDefinitions (all strings). */
export function keyAttributes(): string[] {
  const names: string[] = [TABLE.partitionKey, TABLE.sortKey];
  for (const index of Object.values(TABLE.indexes)) names.push(index.partitionKey, index.sortKey);
  return names;
}
