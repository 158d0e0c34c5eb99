import type { Grant, Response } from "@sealwork/contracts";
import type { VerifiedKey } from "@sealwork/crypto";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { type GroupRing, memberKeys } from "../keys/group-ring";
import type { Lists } from "../settings/permission-hints";
import { type DriveSource, loadDriveSource, openDriveNodes, payloadOf, sealAnew } from "./drive-items";
import type { DriveNode } from "./drive-tree";
import { readerIds } from "./readers";

/**
 * An item's permissions in the browser (spec 001 §2 Permission editor, §6; docs/protocol.md,
 * "Restricted drive items"): the lists from GET /api/drive/items/{rid}/permissions, and a permit that
 * seals the item anew whenever it has or gets a read list: under a fresh key granted to each reader
 * (named users, holders of named roles, its author, the group's administrators) with a verified
 * key in the group's log, or back under the group key when the read list is emptied.
 */

export type ItemPermissions = Response<"GET /api/drive/items/{rid}/permissions">;

export const itemPermissionsQuery = (groupId: number, itemId: number) =>
  queryOptions({
    queryKey: [...queryKeys.groups.drive(groupId), "permissions", itemId] as const,
    queryFn: ({ signal }) => call("GET /api/drive/items/{rid}/permissions", { params: { rid: itemId }, signal }),
    retry: false,
    gcTime: 0,
  });

export function useItemPermissions(groupId: number, itemId: number) {
  return useQuery(itemPermissionsQuery(groupId, itemId));
}

/**
 * The verified keys the readers of an item with these lists get its key for: each reader the
 * group's log names with the key it names (anyone without one there, e.g. a member whose key is
 * pending, gets none and sees the item as one that does not open); one's own as the account has it.
 */
export async function readerKeys(ring: GroupRing, holder: UnlockedKeys, node: Pick<DriveNode, "authorId">, lists: Lists, signal?: AbortSignal): Promise<VerifiedKey[]> {
  const members = await call("GET /api/groups/{id}/members", { params: { id: ring.groupId }, signal });
  return memberKeys(ring, holder, readerIds(members, node.authorId, lists));
}

/** The readers' keys of a restricted item as its lists are now (a rename grants its new key to them); null: not restricted. */
export async function currentReaders(source: DriveSource, holder: UnlockedKeys, node: DriveNode): Promise<VerifiedKey[] | null> {
  if (!node.restricted) return null;
  const lists = await call("GET /api/drive/items/{rid}/permissions", { params: { rid: node.id } });
  return readerKeys(source.ring, holder, node, lists);
}

/**
 * POST /api/drive/items/{rid}/permit: the lists, and when the item has or gets a read list, its payload
 * sealed anew (the node must be open: its name and tags are what is sealed).
 */
export function usePermitItem(groupId: number, source: DriveSource | undefined, holder: UnlockedKeys) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ node, lists, was }: { node: DriveNode; lists: Lists; was: Lists }) => permitItem(source, holder, node, lists, was),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.groups.drive(groupId) }),
  });
}

export async function permitItem(source: DriveSource | undefined, holder: UnlockedKeys, node: DriveNode, lists: Lists, was: Lists) {
  const body: { read: Grant[]; write: Grant[]; use: Grant[] } = { read: lists.read, write: lists.write, use: node.kind === "file" ? [] : lists.use };
  if (lists.read.length === 0 && was.read.length === 0) return call("POST /api/drive/items/{rid}/permit", { params: { rid: node.id }, body });
  if (!source || node.name === null) throw new Error("the item is not open");
  const readers = lists.read.length ? await readerKeys(source.ring, holder, node, lists) : null;
  const seal = await sealAnew(source.ring, source.me, node.recordId, payloadOf(node, node.name, node.tags), readers);
  return call("POST /api/drive/items/{rid}/permit", { params: { rid: node.id }, body: { ...body, seal } });
}

/**
 * Whether this browser should grant a restricted item's key again (docs/protocol.md, "Restricted
 * drive items"): the server says, for one who may set its lists, that a reader holds no grant (a
 * new holder of a named role) whose key the group's log names, or that someone who reads it no
 * more holds one (a fresh key leaves them out).
 */
export function needsRegrant(ring: Pick<GroupRing, "log">, node: DriveNode): boolean {
  if (!node.restricted || node.name === null || !node.regrant) return false;
  return node.regrant.former.length > 0 || node.regrant.missing.some((uid) => ring.log.members.some((m) => m.userId === uid));
}

/**
 * After a change of who holds the group's roles or who is in it (the members page), in the
 * browser of the administrator who made it: every restricted item whose readers changed gets its
 * key granted again at once, as a visit of the drive would (use-drive.ts). Answers how many.
 */
export async function keepDriveGrants(groupId: number, holder: UnlockedKeys): Promise<number> {
  const source = await loadDriveSource(groupId, holder);
  if (!source.ring.writable || !source.answer.items.some((item) => item.regrant)) return 0;
  const nodes = await openDriveNodes({ ...source.ring, me: source.me }, source.answer.items, new Map(), () => undefined);
  const due = nodes.filter((n) => needsRegrant(source.ring, n));
  await regrantItems(source, holder, due);
  return due.length;
}

/** Grants the items' keys again, each with its lists as they are (the lists themselves unchanged). */
export async function regrantItems(source: DriveSource, holder: UnlockedKeys, nodes: DriveNode[]): Promise<void> {
  for (const node of nodes) {
    const lists = await call("GET /api/drive/items/{rid}/permissions", { params: { rid: node.id } });
    await permitItem(source, holder, node, lists, lists);
  }
}

/**
 * The restricted items of the group whose keys this member holds, opened with the held key: read
 * before a renewed key is registered, since the key-moved job takes the grants for the old key
 * away once it is (renew-groups.ts).
 */
export async function heldDriveItems(groupId: number, holder: UnlockedKeys): Promise<DriveNode[]> {
  const source = await loadDriveSource(groupId, holder);
  if (!source.answer.items.some((item) => item.restricted)) return [];
  const nodes = await openDriveNodes({ ...source.ring, me: source.me }, source.answer.items, new Map(), () => undefined);
  return nodes.filter((n) => n.restricted && n.name !== null);
}

/**
 * Grants the held items' keys again, for the readers' keys as they are now and this member's
 * `renewedTo` (a group's only administrator renewing: nobody else could). An item changed since it
 * was read (renamed, permitted, deleted) is left as it is. Answers how many.
 */
export async function regrantHeldItems(groupId: number, held: readonly DriveNode[], renewedTo: UnlockedKeys): Promise<number> {
  if (held.length === 0) return 0;
  const source = await loadDriveSource(groupId, renewedTo);
  const now = new Map(source.answer.items.map((item) => [item.id, item]));
  const due = held.filter((node) => now.get(node.id)?.modified === node.modified);
  await regrantItems(source, renewedTo, due);
  return due.length;
}
