import { nextId } from "../db/counter";
import { db } from "../db/service";

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

  /** For each of `others`, whether they share at least one group with `userId`. */
  export async function sharing(userId: number, others: number[]): Promise<Map<number, boolean>> {
    const mine = new Set(await groupsOf(userId));
    const theirs = await Promise.all(others.map(async (other) => [other, (await groupsOf(other)).some((g) => mine.has(g))] as const));
    return new Map(theirs);
  }
}
