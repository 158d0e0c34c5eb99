import { describe, expect, it } from "vitest";
import { type DriveNode, childrenByParent, compareNodes, countBelow, driveOf, moveTargets, moveVerdict, resolveColumnRoot, searchDrive } from "./drive-tree";

const node = (id: number, parent: number, name: string | null, modified: number, tags: string[] = []): DriveNode => ({
  id,
  recordId: `r${id}`,
  kind: parent === 0 ? "drive" : "folder",
  parent,
  authorId: 1,
  created: modified,
  modified,
  editable: true,
  hasGrants: false,
  restricted: false,
  regrant: null,
  name,
  tags,
  file: null,
});

// Drive 1 holds b (10), a (11) and Ä (12, holding x 13); drive 2 holds nothing.
const nodes = [node(1, 0, "Projekte", 5), node(2, 0, "Archiv", 6), node(10, 1, "b", 30), node(11, 1, "a", 20, ["Legal"]), node(12, 1, "Ä", 10), node(13, 12, "x", 40), node(14, 1, null, 1)];
const collator = new Intl.Collator("de-CH", { sensitivity: "base", numeric: true });
const names = (list: DriveNode[] | undefined) => (list ?? []).map((n) => n.name);

describe("the drive's tree", () => {
  it("sorts siblings by title either way (locale order, a and Ä alike then by id, unreadable names first) and by date either way", () => {
    expect(names(childrenByParent(nodes, compareNodes("titleAsc", collator)).get(1))).toEqual([null, "a", "Ä", "b"]);
    expect(names(childrenByParent(nodes, compareNodes("titleDesc", collator)).get(1))).toEqual(["b", "a", "Ä", null]);
    expect(names(childrenByParent(nodes, compareNodes("dateDesc", collator)).get(1))).toEqual(["b", "a", "Ä", null]);
    expect(names(childrenByParent(nodes, compareNodes("dateAsc", collator)).get(1))).toEqual([null, "Ä", "a", "b"]);
    expect(names(childrenByParent(nodes, compareNodes("titleAsc", collator)).get(0))).toEqual(["Archiv", "Projekte"]);
  });

  it("searches decrypted names and tags without regard to case, showing each match with what is above it", () => {
    expect(searchDrive(nodes, "  legal ")).toEqual({ matches: new Set([11]), shown: new Set([11, 1]) });
    expect(searchDrive(nodes, "X")).toEqual({ matches: new Set([13]), shown: new Set([13, 12, 1]) });
    expect(searchDrive(nodes, "zzz").matches.size).toBe(0);
    expect(searchDrive(nodes, "   ").shown.size).toBe(0);
  });

  it("finds an item's drive and counts what is below it", () => {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(driveOf(byId.get(13)!, byId)?.id).toBe(1);
    expect(driveOf(byId.get(2)!, byId)?.id).toBe(2);
    expect(driveOf(node(99, 98, "lost", 1), byId)).toBeUndefined();
    const children = childrenByParent(nodes, compareNodes("titleAsc", collator));
    expect(countBelow(1, children)).toBe(5);
    expect(countBelow(12, children)).toBe(1);
    expect(countBelow(2, children)).toBe(0);
  });
});

describe("moves in the drive", () => {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = childrenByParent(nodes, compareNodes("titleAsc", collator));
  const at = (id: number) => byId.get(id)!;

  it("ignores a move into the own parent, onto itself, of a drive and onto a file; refuses one below itself or of an item one may not change", () => {
    expect(moveVerdict(at(12), at(1), byId)).toBe("ignore");
    expect(moveVerdict(at(12), at(12), byId)).toBe("ignore");
    expect(moveVerdict(at(2), at(1), byId)).toBe("ignore");
    expect(moveVerdict(at(10), { ...at(11), kind: "file" }, byId)).toBe("ignore");
    expect(moveVerdict(at(12), at(13), byId)).toBe("forbidden");
    expect(moveVerdict({ ...at(12), editable: false }, at(2), byId)).toBe("forbidden");
    expect(moveVerdict(at(12), at(2), byId)).toBe("move");
    expect(moveVerdict(at(13), at(1), byId)).toBe("move");
  });

  it("offers as targets the drives and folders a move goes into, with their paths: not the own parent, the item itself or what is below it, nor unreadable ones", () => {
    expect(moveTargets(at(12), children, byId, "Invalid item").map((t) => t.path)).toEqual(["Archiv", "Projekte / a", "Projekte / b"]);
    expect(moveTargets(at(13), children, byId, "Invalid item").map((t) => t.path)).toEqual(["Archiv", "Projekte", "Projekte / a", "Projekte / b"]);
    expect(moveTargets({ ...at(13), editable: false }, children, byId, "Invalid item")).toEqual([]);
  });
});

describe("a compact drive's column root", () => {
  it("is every drive without a root, the first drive or folder of a name (drives first), missing when there is none, or the items a @@prefix starts", () => {
    expect(resolveColumnRoot(null, nodes)).toEqual({ kind: "all" });
    expect(resolveColumnRoot("  ", nodes)).toEqual({ kind: "all" });
    expect(resolveColumnRoot("Ä", nodes)).toMatchObject({ kind: "folder", folder: { id: 12 } });
    const twice = [...nodes, node(20, 1, "Archiv", 1)];
    expect(resolveColumnRoot("Archiv", twice)).toMatchObject({ kind: "folder", folder: { id: 2 } });
    expect(resolveColumnRoot("Belege", nodes)).toEqual({ kind: "missing", name: "Belege" });
    // A file is no root.
    expect(resolveColumnRoot("x", [node(1, 0, "D", 1), { ...node(2, 1, "x", 1), kind: "file" }])).toEqual({ kind: "missing", name: "x" });
    const prefixed = resolveColumnRoot("@@Pro", [...nodes, node(21, 12, "Protokoll", 2), node(22, 12, "protokoll", 2)]);
    expect(prefixed.kind === "prefix" && prefixed.items.map((n) => n.id)).toEqual([1, 21]);
    expect(resolveColumnRoot("@@", nodes)).toMatchObject({ kind: "prefix", prefix: "" });
  });
});
