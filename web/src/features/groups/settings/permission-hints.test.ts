import { describe, expect, it } from "vitest";
import { grantKey, permissionHint, withGrant, withoutGrant } from "./permission-hints";

const user = (id: number) => ({ role: false, id });
const role = (id: number) => ({ role: true, id });

describe("the permission editor's lists (spec 001 §2)", () => {
  it("hints when read is empty but use is set, and vice versa", () => {
    expect(permissionHint({ read: [], use: [user(1)] })).toBe("readEmpty");
    expect(permissionHint({ read: [role(2)], use: [] })).toBe("useEmpty");
    expect(permissionHint({ read: [], use: [] })).toBeNull();
    expect(permissionHint({ read: [user(1)], use: [role(2)] })).toBeNull();
  });

  it("tells a user from a role of the same id, and takes each once", () => {
    expect(grantKey(user(3))).not.toBe(grantKey(role(3)));
    expect(withGrant(withGrant([user(3)], role(3)), user(3))).toEqual([user(3), role(3)]);
    expect(withoutGrant([user(3), role(3)], role(3))).toEqual([user(3)]);
  });
});
