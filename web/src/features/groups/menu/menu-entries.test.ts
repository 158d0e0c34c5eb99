import type { MenuEntry } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { startPath } from "../frame/start-path";
import { findEntry, groupIdOfPath, isReadOnly, menuLabel, pageIdParam, pagePath, visibleEntries } from "./menu-entries";

const entry = (id: number, changes: Partial<MenuEntry> = {}): MenuEntry => ({
  id,
  name: `Page ${id}`,
  menu_name: null,
  icon: null,
  menu_order: 0,
  internal: false,
  startpage: false,
  type: "pinboard",
  reserved: null,
  level: 2,
  ...changes,
});
const drive = entry(1, { name: "Drive", type: "drive", reserved: "drive", internal: true });
const members = entry(2, { name: "Members", type: "members", reserved: "members", internal: true });
const conversation = entry(3, { name: "Conversation", type: "conversation", reserved: "conversation", internal: true });

describe("the group menu (spec 001 §2)", () => {
  it("lists only pages with a level above 0, by menu order (higher sinks), then id", () => {
    const menu = [entry(9, { menu_order: 255 }), entry(7, { level: 0 }), entry(5, { menu_order: 10 }), entry(4, { menu_order: 10 }), drive];
    expect(visibleEntries(menu).map((e) => e.id)).toEqual([1, 4, 5, 9]);
  });

  it("uses the menu name, else the name", () => {
    expect(menuLabel(entry(4, { menu_name: "Notes" }))).toBe("Notes");
    expect(menuLabel(entry(4, { menu_name: "  " }))).toBe("Page 4");
  });

  it("addresses drive and members by their reserved words, other pages by number", () => {
    expect(pagePath(8, drive)).toBe("/group/8/page/drive");
    expect(pagePath(8, members)).toBe("/group/8/page/members");
    expect(pagePath(8, conversation)).toBe("/group/8/page/3");
    expect(pagePath(8, entry(12))).toBe("/group/8/page/12");
  });

  it("is read-only at level 1 or below", () => {
    expect(isReadOnly(entry(4, { level: 1 }))).toBe(true);
    expect(isReadOnly(entry(4, { level: 2 }))).toBe(false);
  });

  it("finds the page an address names, tells a bad address from a page not in the menu", () => {
    const menu = [drive, members, entry(12)];
    expect(findEntry(menu, "drive")).toBe(drive);
    expect(findEntry(menu, "12")?.id).toBe(12);
    expect(findEntry(menu, "13")).toBeNull();
    expect(findEntry([entry(12)], "members")).toBeNull();
    for (const bad of ["abc", "012", "1e3", "-1", "0", "", undefined, "99999999999999999"]) expect(findEntry(menu, bad)).toBeUndefined();
    expect(pageIdParam("42")).toBe(42);
  });
});

describe("the group a path is inside", () => {
  it("reads /group/{g}/… and nothing else", () => {
    expect(groupIdOfPath("/group/12")).toBe(12);
    expect(groupIdOfPath("/group/12/page/drive")).toBe(12);
    expect(groupIdOfPath("/group/new")).toBeNull();
    expect(groupIdOfPath("/groups/12")).toBeNull();
    expect(groupIdOfPath("/conversation/12")).toBeNull();
  });
});

describe("the group start (spec 001 §2)", () => {
  it("opens the start page option when the caller sees it", () => {
    expect(startPath(5, 12, [drive, members, entry(12)])).toBe("/group/5/page/12");
  });

  it("else the drive, else the members page, else the conversation page", () => {
    expect(startPath(5, null, [conversation, members, drive])).toBe("/group/5/page/drive");
    expect(startPath(5, 12, [conversation, members, drive])).toBe("/group/5/page/drive");
    expect(startPath(5, null, [conversation, members, { ...drive, level: 0 }])).toBe("/group/5/page/members");
    expect(startPath(5, null, [conversation, entry(12)])).toBe("/group/5/page/3");
  });

  it("else the first page it may see, or nothing", () => {
    expect(startPath(5, null, [entry(12, { level: 0 }), entry(13)])).toBe("/group/5/page/13");
    expect(startPath(5, null, [])).toBeNull();
  });
});
