import { describe, expect, it } from "vitest";
import { readerIds } from "./readers";

const member = (id: number, over: { group_admin?: boolean; roles?: number[] } = {}) => ({ id, name: `m${id}`, group_admin: false, roles: [], creator: false, ...over });

describe("readerIds: who a restricted item's key is granted to", () => {
  const members = { members: [member(1, { group_admin: true, roles: [9] }), member(2), member(3, { roles: [5] }), member(4), member(5, { roles: [6] })] };

  it("named users, holders of named roles, the author and the group's administrators, once each", () => {
    expect(readerIds(members, 4, { read: [{ role: false, id: 2 }, { role: true, id: 5 }], write: [], use: [] })).toEqual([1, 2, 3, 4]);
  });

  it("the write and use lists name readers too; nobody outside the group", () => {
    expect(readerIds(members, 2, { read: [{ role: false, id: 99 }], write: [{ role: true, id: 6 }], use: [{ role: false, id: 2 }] })).toEqual([1, 2, 5]);
  });
});
