import { db } from "../db/service";
import "./entities";

/**
 * What conversations ask of groups (spec 000 §6: starting a conversation, or adding someone to
 * one, needs a shared group unless the actor is an administrator). A module of its own, with
 * nothing else of the group domain, so that the conversation and pickup areas stay small.
 */

/** The ids of the groups `userId` is a member of. */
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
