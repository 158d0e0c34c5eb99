import { describe, expect, it } from "vitest";
import { type ShownMessage, LATE_COMMIT_OVERLAP, addPending, dropPending, mergeMessages, messageKey, newerCursor, newerKeys, newestId, oldestId, pendingMessage, reconcileAppend, setPendingStatus } from "./message-state";

type M = ShownMessage<string>;
const ME = 7;
const stored = (id: number, sourceId = 3, localid: string | null = `l${id}`): M => ({
  key: messageKey(sourceId, localid, id),
  id,
  sourceId,
  localid,
  timestamp: id,
  payload: `text ${id}`,
  status: "sent",
});
const ids = (list: M[]) => list.map((m) => m.id ?? m.localid);

describe("conversation messages: pending and stored (spec 000 §4)", () => {
  it("merges pages in id order, each id once", () => {
    const list = mergeMessages([stored(5), stored(6)], [stored(2), stored(3), stored(5)]);
    expect(ids(list)).toEqual([2, 3, 5, 6]);
    expect(newestId(list)).toBe(6);
    expect(oldestId(list)).toBe(2);
    expect(newestId([])).toBe(0);
    expect(oldestId([])).toBeNull();
  });

  it("loads newer messages from a little below the newest, so a late-committed one is not skipped", () => {
    const held = [stored(40), stored(41), stored(43)];
    expect(newerCursor(held)).toBe(43 - LATE_COMMIT_OVERLAP);
    expect(newerCursor([stored(3)])).toBe(0);
    // Id 42 became visible after 43 did: the next load (after the cursor) brings it, in its place.
    const next = mergeMessages(held, [stored(41), stored(42), stored(43), stored(44)]);
    expect(ids(next)).toEqual([40, 41, 42, 43, 44]);
  });

  it("replaces the pending message by the append answer when it is in order", () => {
    let list: M[] = [stored(1), stored(2)];
    list = addPending(list, pendingMessage({ sourceId: ME, localid: "a", timestamp: 10, payload: "mine" }));
    list = addPending(list, pendingMessage({ sourceId: ME, localid: "b", timestamp: 11, payload: "mine too" }));
    expect(ids(list)).toEqual([1, 2, "a", "b"]);
    const first = reconcileAppend(list, stored(3, ME, "a"), 2);
    expect(first.inOrder).toBe(true);
    expect(ids(first.messages)).toEqual([1, 2, 3, "b"]);
    // The key stays, so React keeps the element.
    expect(first.messages[2]!.key).toBe(list[2]!.key);
    const second = reconcileAppend(first.messages, stored(4, ME, "b"), 3);
    expect(ids(second.messages)).toEqual([1, 2, 3, 4]);
  });

  it("keeps the pending message and asks for a reload when someone else wrote in between", () => {
    let list: M[] = [stored(1), stored(2)];
    list = addPending(list, pendingMessage({ sourceId: ME, localid: "a", timestamp: 10, payload: "mine" }));
    const answer = reconcileAppend(list, stored(4, ME, "a"), 3);
    expect(answer.inOrder).toBe(false);
    expect(answer.messages).toBe(list);
    // The reload (after=2) brings 3 and 4; the pending one is replaced by 4.
    expect(ids(mergeMessages(list, [stored(3), stored(4, ME, "a")]))).toEqual([1, 2, 3, 4]);
  });

  it("treats a retried append answered with a message it already has as in order", () => {
    const list = mergeMessages([], [stored(1), stored(2, ME, "a")]);
    expect(reconcileAppend(list, stored(2, ME, "a"), 1)).toEqual({ messages: list, inOrder: true });
  });

  it("does not confuse another sender's equal local id with the pending message", () => {
    let list: M[] = [stored(1)];
    list = addPending(list, pendingMessage({ sourceId: ME, localid: "same", timestamp: 10, payload: "mine" }));
    expect(ids(mergeMessages(list, [stored(2, 3, "same")]))).toEqual([1, 2, "same"]);
  });

  it("marks a failed send, and a retry (the same local id) is pending again in its place", () => {
    const message = pendingMessage<string>({ sourceId: ME, localid: "a", timestamp: 1, payload: "x" });
    const list = addPending<string>([stored(1)], message);
    const failed = setPendingStatus(list, message.key, "failed");
    expect(failed[1]!.status).toBe("failed");
    expect(setPendingStatus(failed, message.key, "pending")[1]!.status).toBe("pending");
    const retried = addPending(failed, message);
    expect(ids(retried)).toEqual([1, "a"]);
    expect(retried[1]!.status).toBe("pending");
  });

  it("takes a pending message back (into the message bar), never a stored one with the same key", () => {
    const message = pendingMessage<string>({ sourceId: ME, localid: "a", timestamp: 1, payload: "x" });
    const list = addPending<string>([stored(1), stored(2, ME, "b")], message);
    expect(ids(dropPending(list, message.key))).toEqual([1, 2]);
    expect(ids(dropPending(list, messageKey(ME, "b", 2)))).toEqual([1, 2, "a"]);
  });
});

describe("which keys an open conversation uses: the poll's or the history's", () => {
  /** Keys as far as a verified log of `seq` entries reaches (null: protocol 1, no log). */
  const keysAt = (seq: number | null) => ({ ring: seq === null ? null : { log: { head: { seq } } } });

  it("takes the history's when it reaches further in the log (read afresh after a removal made here, the poll's from before it)", () => {
    const poll = keysAt(3);
    const history = keysAt(4);
    expect(newerKeys(poll, history)).toBe(history);
  });

  it("takes the poll's when it reaches further (another member's change), or as far", () => {
    const history = keysAt(3);
    const poll = keysAt(5);
    expect(newerKeys(poll, history)).toBe(poll);
    const same = keysAt(3);
    expect(newerKeys(same, history)).toBe(same);
  });

  it("takes whichever there is, and the poll's in protocol 1", () => {
    const history = keysAt(2);
    expect(newerKeys(undefined, history)).toBe(history);
    expect(newerKeys(history, undefined)).toBe(history);
    expect(newerKeys(undefined, undefined)).toBeNull();
    const v1 = keysAt(null);
    const v1Poll = keysAt(null);
    expect(newerKeys(v1Poll, v1)).toBe(v1Poll);
  });
});
