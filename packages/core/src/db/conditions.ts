/** Whether DynamoDB refused a write because its condition did not hold (ElectroDB wraps the error). */
export function isConditionFailure(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : "";
  return text.includes("ConditionalCheckFailed") || text.includes("conditional request failed");
}
