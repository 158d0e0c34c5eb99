import type { TreeNodeData } from "@mantine/core";
import type { DriveItemType, FileRef } from "@sealwork/crypto";

/**
 * The drive's tree as the page arranges it (spec 001 §2, §4): siblings in one of four orders, a
 * search over the decrypted names and tags that keeps each match's place, an item's drive and how
 * much is below it. Pure functions over what drive-items.ts opened.
 */

/** An item as the page shows it: `name` null when it does not open (the page says 'Invalid item'). */
export interface DriveNode {
  id: number;
  recordId: string;
  kind: DriveItemType;
  parent: number;
  authorId: number;
  created: number;
  modified: number;
  editable: boolean;
  /** Whether a permission list names someone (the padlock). */
  hasGrants: boolean;
  /** Whether its read list does: its key is granted to its readers, not under the group key. */
  restricted: boolean;
  /** For one who may set its lists: readers without a grant of its key and former holders of one (the server's word). */
  regrant: { missing: number[]; former: number[] } | null;
  name: string | null;
  tags: string[];
  /** A file's reference (its key, header, plain size, type), from the sealed payload; null for drives and folders. */
  file: FileRef | null;
}

export const SORT_MODES = ["titleAsc", "titleDesc", "dateDesc", "dateAsc"] as const;
export type SortMode = (typeof SORT_MODES)[number];

/** Compares two items for the sort mode (spec 001 §2): by title either way, or by date (last change) either way; ties by id. */
export function compareNodes(mode: SortMode, collator: Intl.Collator): (a: DriveNode, b: DriveNode) => number {
  const title = (a: DriveNode, b: DriveNode) => collator.compare(a.name ?? "", b.name ?? "");
  const date = (a: DriveNode, b: DriveNode) => a.modified - b.modified;
  const by = { titleAsc: title, titleDesc: (a: DriveNode, b: DriveNode) => -title(a, b), dateDesc: (a: DriveNode, b: DriveNode) => -date(a, b), dateAsc: date }[mode];
  return (a, b) => by(a, b) || a.id - b.id;
}

/** The children of each item (0: the drives), sorted. */
export function childrenByParent(nodes: DriveNode[], compare: (a: DriveNode, b: DriveNode) => number): Map<number, DriveNode[]> {
  const children = new Map<number, DriveNode[]>();
  for (const node of nodes) children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  for (const list of children.values()) list.sort(compare);
  return children;
}

/**
 * A search over the decrypted names and tags (case-insensitive): the ids of the matching items
 * and of every item above one, so the tree shows the matches where they are (pruned results).
 */
export function searchDrive(nodes: DriveNode[], text: string): { matches: Set<number>; shown: Set<number> } {
  const term = text.trim().toLocaleLowerCase();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const matches = new Set<number>();
  const shown = new Set<number>();
  if (!term) return { matches, shown };
  for (const node of nodes) {
    const hit = (node.name ?? "").toLocaleLowerCase().includes(term) || node.tags.some((tag) => tag.toLocaleLowerCase().includes(term));
    if (!hit) continue;
    matches.add(node.id);
    for (let at: DriveNode | undefined = node; at && !shown.has(at.id); at = byId.get(at.parent)) shown.add(at.id);
  }
  return { matches, shown };
}

/** The drive an item is in (itself for a drive). */
export function driveOf(node: DriveNode, byId: Map<number, DriveNode>): DriveNode | undefined {
  let at: DriveNode | undefined = node;
  for (let steps = 0; at && at.kind !== "drive" && steps < 100; steps++) at = byId.get(at.parent);
  return at?.kind === "drive" ? at : undefined;
}

/** How many items are below an item. */
export function countBelow(id: number, children: Map<number, DriveNode[]>): number {
  return (children.get(id) ?? []).reduce((sum, child) => sum + 1 + countBelow(child.id, children), 0);
}

/** The tree's data: each item under its parent, in the sort's order; with a search, only the matches and what is above them. */
export function treeData(children: Map<number, DriveNode[]>, parent: number, shown: Set<number> | null, invalid: string): TreeNodeData[] {
  return (children.get(parent) ?? [])
    .filter((node) => shown === null || shown.has(node.id))
    .map((node) => {
      const below = treeData(children, node.id, shown, invalid);
      return { value: String(node.id), label: node.name ?? invalid, ...(below.length ? { children: below } : {}) };
    });
}

/**
 * What a move of `node` into `target` is (spec 001 §4), alike for a drop and for 'Move to…':
 * "ignore" into its own parent, onto itself, for a drive or onto a file; "forbidden" into
 * something below itself or by someone who may not change it (the refusal's text); else "move".
 */
export function moveVerdict(node: DriveNode, target: DriveNode, byId: Map<number, DriveNode>): "ignore" | "forbidden" | "move" {
  if (node.kind === "drive" || target.kind === "file" || target.id === node.parent || target.id === node.id) return "ignore";
  for (let at: DriveNode | undefined = target, steps = 0; at && steps < 100; at = byId.get(at.parent), steps++) if (at.id === node.id) return "forbidden";
  return node.editable ? "move" : "forbidden";
}

/** The drives and folders `node` may move into, each with its path from its drive ("Drive / Folder"), in the tree's order. */
export function moveTargets(node: DriveNode, children: Map<number, DriveNode[]>, byId: Map<number, DriveNode>, invalid: string): { node: DriveNode; path: string }[] {
  const found: { node: DriveNode; path: string }[] = [];
  const walk = (parent: number, above: string) => {
    for (const child of children.get(parent) ?? []) {
      // Nothing below the item itself can take it.
      if (child.kind === "file" || child.id === node.id) continue;
      const path = above ? `${above} / ${child.name ?? invalid}` : (child.name ?? invalid);
      if (child.name !== null && moveVerdict(node, child, byId) === "move") found.push({ node: child, path });
      walk(child.id, path);
    }
  };
  walk(0, "");
  return found;
}

/**
 * What a compact drive's column shows (spec 001 §2, compact mode): with no root the drives; with a
 * folder name the first drive or folder of that name (drives first, then the oldest), or "missing"
 * ('Click to start storing files...' makes it); with "@@prefix" every readable item whose name
 * starts with the prefix (case as typed), wherever it is.
 */
export type ColumnRoot = { kind: "all" } | { kind: "folder"; folder: DriveNode } | { kind: "missing"; name: string } | { kind: "prefix"; prefix: string; items: DriveNode[] };

export const PREFIX_MARK = "@@";

export function resolveColumnRoot(root: string | null, nodes: DriveNode[]): ColumnRoot {
  const text = root?.trim() ?? "";
  if (!text) return { kind: "all" };
  if (text.startsWith(PREFIX_MARK)) {
    const prefix = text.slice(PREFIX_MARK.length);
    return { kind: "prefix", prefix, items: nodes.filter((n) => n.name !== null && n.name.startsWith(prefix)) };
  }
  const named = nodes.filter((n) => n.kind !== "file" && n.name === text).sort((a, b) => Number(b.kind === "drive") - Number(a.kind === "drive") || a.created - b.created || a.id - b.id);
  return named[0] ? { kind: "folder", folder: named[0] } : { kind: "missing", name: text };
}
