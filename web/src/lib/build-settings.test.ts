import { describe, expect, it } from "vitest";
import { buildSettings, viteDefines } from "../../build-settings";
import { secureCodeSetting } from "./build-settings";

describe("settings that weaken encryption come from the build (issue 11, item 3)", () => {
  it("reads DISABLE_SECURECODE and DEFAULT_SECURECODE, and refuses codes off without a default code", () => {
    expect(buildSettings({})).toEqual({ disableSecurecode: false, defaultSecurecode: null });
    expect(buildSettings({ DISABLE_SECURECODE: "false", DEFAULT_SECURECODE: "ignored-1" })).toEqual({ disableSecurecode: false, defaultSecurecode: null });
    expect(buildSettings({ DISABLE_SECURECODE: "true", DEFAULT_SECURECODE: "instance-code-1" })).toEqual({ disableSecurecode: true, defaultSecurecode: "instance-code-1" });
    expect(buildSettings({ DISABLE_SECURECODE: "1", DEFAULT_SECURECODE: "x" }).disableSecurecode).toBe(true);
    expect(() => buildSettings({ DISABLE_SECURECODE: "true" })).toThrow(/DEFAULT_SECURECODE is required/);
    expect(() => buildSettings({ DISABLE_SECURECODE: "yes please" })).toThrow(/DISABLE_SECURECODE/);
    expect(() => buildSettings({ DISABLE_SECURECODE: "true", DEFAULT_SECURECODE: "x".repeat(1025) })).toThrow(/1024/);
  });

  it("hands the SPA exactly what the build says", () => {
    const defines = viteDefines({ disableSecurecode: true, defaultSecurecode: "instance-code-1" });
    const env = Object.fromEntries(Object.entries(defines).map(([name, value]) => [name.replace("import.meta.env.", ""), JSON.parse(value) as string]));
    expect(secureCodeSetting(env)).toEqual({ disabled: true, defaultCode: "instance-code-1" });
    expect(secureCodeSetting({})).toEqual({ disabled: false, defaultCode: null });
    // Off without a code is not off: nothing would open the keys.
    expect(secureCodeSetting({ VITE_DISABLE_SECURECODE: "true" })).toEqual({ disabled: false, defaultCode: null });
  });
});
