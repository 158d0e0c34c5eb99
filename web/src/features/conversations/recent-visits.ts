/** How many conversations the Recently list keeps. */
export const MAX_RECENT = 5;

/** The list after a visit to `id`: it heads the list, once, and the oldest beyond the limit drop out. */
export function withVisit(ids: readonly number[], id: number): number[] {
  return [id, ...ids.filter((other) => other !== id)].slice(0, MAX_RECENT);
}
