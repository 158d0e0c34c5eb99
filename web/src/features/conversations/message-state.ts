/**
 * The messages a conversation screen shows, oldest first: the server's messages in id order,
 * then the user's pending ones in the order they were sent (spec 000 §4, Local message). Pure
 * functions over plain lists, so the reconciliation rules can be tested on their own.
 */
export interface ShownMessage<P> {
  /** Stable across the pending → stored change, for React. */
  key: string;
  /** The server's id; null while pending. */
  id: number | null;
  sourceId: number;
  localid: string | null;
  /** Seconds. */
  timestamp: number;
  /** The opened payload; null when it did not open ('Invalid mote payload'). */
  payload: P | null;
  status: "sent" | "pending" | "failed";
  /**
   * In a conversation with a membership log (protocol v2): signed by its sender, the guest's,
   * unsigned (from before the log), or invalid (a signature that does not verify: never shown as
   * the named sender's). Absent elsewhere.
   */
  verification?: "signed" | "guest" | "unsigned" | "invalid";
}

export const messageKey = (sourceId: number, localid: string | null, id: number | null) => (localid !== null ? `${sourceId}:${localid}` : `#${id}`);

const sameLocal = (a: { sourceId: number; localid: string | null }, b: { sourceId: number; localid: string | null }) =>
  a.localid !== null && a.localid === b.localid && a.sourceId === b.sourceId;

/** The newest stored id the client has (0 when none). */
export function newestId<P>(messages: ShownMessage<P>[]): number {
  let max = 0;
  for (const m of messages) if (m.id !== null && m.id > max) max = m.id;
  return max;
}

/**
 * Under concurrent appends a message can become visible a moment after a higher id did (ids come
 * from a counter before the write; docs/api.md Conversations). Loading newer messages therefore
 * starts this many ids below the newest one held, so such a message is fetched on the next load
 * instead of being skipped; ids already held are merged away.
 */
export const LATE_COMMIT_OVERLAP = 20;

/** The `after` cursor for loading newer messages. */
export function newerCursor<P>(messages: ShownMessage<P>[]): number {
  return Math.max(0, newestId(messages) - LATE_COMMIT_OVERLAP);
}

/** The oldest stored id the client has (null when none). */
export function oldestId<P>(messages: ShownMessage<P>[]): number | null {
  let min: number | null = null;
  for (const m of messages) if (m.id !== null && (min === null || m.id < min)) min = m.id;
  return min;
}

/**
 * Adds stored messages (from a page, older or newer): each id once, in id order; a pending
 * message whose local id arrives stored is replaced by it.
 */
export function mergeMessages<P>(current: ShownMessage<P>[], incoming: ShownMessage<P>[]): ShownMessage<P>[] {
  const stored = new Map<number, ShownMessage<P>>();
  for (const m of current) if (m.id !== null) stored.set(m.id, m);
  for (const m of incoming) if (m.id !== null) stored.set(m.id, m);
  const sorted = [...stored.values()].sort((a, b) => a.id! - b.id!);
  const pending = current.filter((m) => m.id === null && !sorted.some((s) => sameLocal(s, m)));
  return [...sorted, ...pending];
}

/** A message the user just sent, before the server has it (keyed by its local id). */
export function pendingMessage<P>(message: Omit<ShownMessage<P>, "id" | "status" | "key">): ShownMessage<P> {
  return { ...message, id: null, status: "pending", key: messageKey(message.sourceId, message.localid, null) };
}

/** Shows a pending message after the others; one already shown (a failed send retried) is pending again. */
export function addPending<P>(current: ShownMessage<P>[], message: ShownMessage<P>): ShownMessage<P>[] {
  return current.some((m) => m.key === message.key) ? setPendingStatus(current, message.key, "pending") : [...current, message];
}

export function setPendingStatus<P>(current: ShownMessage<P>[], key: string, status: "pending" | "failed"): ShownMessage<P>[] {
  return current.map((m) => (m.id === null && m.key === key ? { ...m, status } : m));
}

/** A pending message taken back (into the message bar, drafts.ts): it was not stored. */
export function dropPending<P>(current: ShownMessage<P>[], key: string): ShownMessage<P>[] {
  return current.filter((m) => !(m.id === null && m.key === key));
}

/**
 * The append answer for a pending message. In order (the message before it is the newest one the
 * client has) it replaces the pending one; otherwise the list stays as it is and the caller loads
 * the newer messages (`after`), which bring it.
 */
export function reconcileAppend<P>(current: ShownMessage<P>[], stored: ShownMessage<P>, previousMote: number): { messages: ShownMessage<P>[]; inOrder: boolean } {
  if (current.some((m) => m.id === stored.id)) return { messages: mergeMessages(current, [stored]), inOrder: true };
  if (previousMote !== newestId(current)) return { messages: current, inOrder: false };
  return { messages: mergeMessages(current, [stored]), inOrder: true };
}

/**
 * The keys of whichever view of the conversation reaches further in its verified log: the poll's
 * (another member's change found by a newer page) or the history's (read afresh after a change made
 * here, when the poll's are from before it). The poll's when both reach as far (and in protocol 1).
 */
export function newerKeys<K extends { ring: { log: { head: { seq: number } } } | null }>(live: K | undefined, history: K | undefined): K | null {
  if (!live || !history) return live ?? history ?? null;
  return (history.ring?.log.head.seq ?? -1) > (live.ring?.log.head.seq ?? -1) ? history : live;
}
