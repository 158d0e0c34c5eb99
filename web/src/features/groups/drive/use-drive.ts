import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { type DriveSource, type OpenedCache, createItem, deleteItem, loadDriveSource, moveItem, openDriveNodes, renameItem } from "./drive-items";
import { currentReaders, needsRegrant, regrantItems } from "./item-permissions";
import type { DriveNode } from "./drive-tree";

/** What the page shows: the items open so far (the top of the tree first), and whether all are. */
export interface OpenedNodes {
  source: DriveSource;
  nodes: DriveNode[];
  done: boolean;
}

/**
 * The drive page's data: the server's list and the group's ring (a query), the items opened from
 * it step by step so the first rows show while the rest decrypts (a large drive), each payload
 * opened once per page (a reload after a change opens only what changed), and the changes, each
 * followed by a fresh load. A move shows at once and is put back if refused.
 */
export function useDrive(groupId: number, holder: UnlockedKeys) {
  const client = useQueryClient();
  const source = useQuery({
    queryKey: queryKeys.groups.drive(groupId),
    queryFn: ({ signal }) => loadDriveSource(groupId, holder, signal),
    staleTime: 30_000,
    gcTime: 0,
    retry: false,
    // A member whose copy of the group key is on its way: loaded again once it is there (keys/wrap-wait.ts).
  });
  const cache = useRef<OpenedCache>(new Map());
  const [opened, setOpened] = useState<OpenedNodes | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    const from = source.data;
    if (!from) return;
    let cancelled = false;
    const show = (nodes: DriveNode[], done: boolean) => !cancelled && setOpened({ source: from, nodes, done });
    openDriveNodes({ ...from.ring, me: from.me }, from.answer.items, cache.current, (nodes) => show(nodes, nodes.length === from.answer.items.length), () => cancelled)
      .then((nodes) => show(nodes, true))
      .catch((error: unknown) => !cancelled && setFailure(error));
    return () => {
      cancelled = true;
    };
  }, [source.data]);

  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.groups.drive(groupId) });

  // Restricted items whose readers changed (a named role's holders) get their key granted again by
  // the first browser of someone who may set their lists; each at most once per page (a reader
  // whose key cannot be found stays without a grant: trying again would only seal it anew).
  const regranted = useRef(new Set<number>());
  useEffect(() => {
    if (!opened?.done || !opened.source.ring.writable) return;
    const due = opened.nodes.filter((n) => needsRegrant(opened.source.ring, n) && !regranted.current.has(n.id));
    if (!due.length) return;
    for (const n of due) regranted.current.add(n.id);
    regrantItems(opened.source, holder, due)
      // Refused (a permit came first, the epoch moved on): the grants stay as they were, and the next visit tries again.
      .catch(() => undefined)
      .finally(() => void client.invalidateQueries({ queryKey: queryKeys.groups.drive(groupId) }));
  }, [opened, holder, client, groupId]);
  const ring = () => source.data!.ring;

  const create = useMutation({
    mutationFn: (input: { kind: "drive" | "folder"; parent: number; name: string; tags: string[] }) => createItem(ring(), input.kind, input.parent, input.name, input.tags),
    onSettled: refresh,
  });
  const rename = useMutation({
    mutationFn: async (input: { node: DriveNode; name: string; tags: string[] }) =>
      renameItem(ring(), source.data!.me, input.node, input.name, input.tags, await currentReaders(source.data!, holder, input.node)),
    onSettled: refresh,
  });
  const move = useMutation({
    mutationFn: (input: { node: DriveNode; parent: number }) => moveItem(groupId, input.node.id, input.parent),
    onMutate: ({ node, parent }) => {
      const before = opened;
      setOpened((now) => now && { ...now, nodes: now.nodes.map((n) => (n.id === node.id ? { ...n, parent } : n)) });
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) setOpened(context.before);
    },
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (node: DriveNode) => deleteItem(groupId, node.id), onSettled: refresh });

  return { source, opened, failure, refresh, create, rename, move, remove };
}

/** `useDrive`'s state once its list is in and its items are opening: what the compact column takes. */
export type LoadedDrive = ReturnType<typeof useDrive> & { opened: OpenedNodes };
