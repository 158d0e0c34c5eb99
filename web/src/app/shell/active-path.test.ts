import { describe, expect, it } from "vitest";
import { isActivePath } from "./active-path";

describe("menu entries: the active one", () => {
  it("matches the path and the pages below it, by whole segments", () => {
    expect(isActivePath("/conversation/1", "/conversation/1")).toBe(true);
    expect(isActivePath("/conversation/12", "/conversation/1")).toBe(false);
    expect(isActivePath("/settings/totp", "/settings/")).toBe(true);
    expect(isActivePath("/settings", "/settings/")).toBe(true);
    expect(isActivePath("/settingsx", "/settings/")).toBe(false);
  });

  it("marks home only on home", () => {
    expect(isActivePath("/", "/")).toBe(true);
    expect(isActivePath("/settings/", "/")).toBe(false);
  });
});
