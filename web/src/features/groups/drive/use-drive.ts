import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { GroupKeyWaitingError } from "../keys/group-ring";
import { type OpenedDrive, createItem, deleteItem, loadDrive, moveItem, renameItem } from "./drive-items";
import type { DriveNode } from "./drive-tree";

/**
 * The drive page's data: the items opened with the group's ring (with how far the decryption
 * got, for a large drive), and the changes, each followed by a fresh load of the drive.
 */
export function useDrive(groupId: number, holder: UnlockedKeys) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const report = useCallback((done: number, total: number) => setProgress({ done, total }), []);
  const drive = useQuery({
    queryKey: queryKeys.groups.drive(groupId),
    queryFn: ({ signal }) => loadDrive(groupId, holder, report, signal),
    staleTime: 30_000,
    gcTime: 0,
    retry: false,
    // A member whose copy of the group key is on its way looks again every few seconds.
    refetchInterval: (query) => (query.state.error instanceof GroupKeyWaitingError ? 3_000 : false),
  });
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.groups.drive(groupId) });
  const ring = () => (drive.data as OpenedDrive).ring;

  const create = useMutation({
    mutationFn: (input: { kind: "drive" | "folder"; parent: number; name: string; tags: string[] }) => createItem(ring(), input.kind, input.parent, input.name, input.tags),
    onSettled: refresh,
  });
  const rename = useMutation({
    mutationFn: (input: { node: DriveNode; name: string; tags: string[] }) => renameItem(ring(), input.node, input.name, input.tags),
    onSettled: refresh,
  });
  // Shown in its new place at once; put back if the server refuses (then the drive is loaded again either way).
  const move = useMutation({
    mutationFn: (input: { node: DriveNode; parent: number }) => moveItem(groupId, input.node.id, input.parent),
    onMutate: async ({ node, parent }) => {
      await client.cancelQueries({ queryKey: queryKeys.groups.drive(groupId) });
      const before = client.getQueryData<OpenedDrive>(queryKeys.groups.drive(groupId));
      if (before) client.setQueryData<OpenedDrive>(queryKeys.groups.drive(groupId), { ...before, nodes: before.nodes.map((n) => (n.id === node.id ? { ...n, parent } : n)) });
      return { before };
    },
    onError: (_error, _input, context) => {
      if (context?.before) client.setQueryData(queryKeys.groups.drive(groupId), context.before);
    },
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (node: DriveNode) => deleteItem(groupId, node.id), onSettled: refresh });

  return { drive, progress, refresh, create, rename, move, remove };
}
