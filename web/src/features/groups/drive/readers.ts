import type { Grant, Response } from "@sealwork/contracts";

type Members = Pick<Response<"GET /api/groups/{id}/members">, "members">;

/**
 * Who reads an item with these lists (spec 001 §6; the server's access layer holds to the same):
 * the members any list names, those holding a role any list names, its author and the group's
 * administrators, each once, by id. A restricted item's key is granted to these.
 */
export function readerIds(members: Members, authorId: number, lists: Record<"read" | "write" | "use", readonly Grant[]>): number[] {
  const named = [...lists.read, ...lists.write, ...lists.use];
  const users = new Set(named.filter((g) => !g.role).map((g) => g.id));
  const roles = new Set(named.filter((g) => g.role).map((g) => g.id));
  return members.members.filter((m) => m.id === authorId || m.group_admin || users.has(m.id) || m.roles.some((r) => roles.has(r))).map((m) => m.id);
}
