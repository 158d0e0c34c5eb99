import { nextId } from "./db/counter";
import { db } from "./db/entities";

/**
 * Groups, as far as conversations need them today: who is in which group, so that "starting a
 * conversation requires sharing a group with the other user" (spec 000 §6) is a real rule. The
 * groups work replaces this placeholder with groups, pages and their keys.
 */
export namespace Group {
  export function allocateId(): Promise<number> {
    return nextId("group");
  }

  export async function addMember(groupId: number, userId: number): Promise<void> {
    await db().entities.groupmember.put({ groupId, userId }).go();
  }

  export async function groupsOf(userId: number): Promise<number[]> {
    const { data } = await db().entities.groupmember.query.byUser({ userId }).go({ pages: "all" });
    return data.map((m) => m.groupId);
  }

  /** Whether the two users are members of at least one common group. */
  export async function shareAGroup(a: number, b: number): Promise<boolean> {
    const [mine, theirs] = await Promise.all([groupsOf(a), groupsOf(b)]);
    const set = new Set(mine);
    return theirs.some((g) => set.has(g));
  }
}
