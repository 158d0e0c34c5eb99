import { describe, expect, it } from "vitest";
import { pickupCodeInput } from "./pickup-code";

describe("pickupCodeInput", () => {
  it("upper-cases, drops spaces and puts the hyphen after the fifth character", () => {
    expect(pickupCodeInput("abab a12121")).toBe("ABABA-12121");
    expect(pickupCodeInput("ababa")).toBe("ABABA");
    expect(pickupCodeInput("ababa1")).toBe("ABABA-1");
  });

  it("keeps at most 10 characters and lets a typed hyphen be deleted", () => {
    expect(pickupCodeInput("ABABA-12121ZZ")).toBe("ABABA-12121");
    expect(pickupCodeInput("ABABA-")).toBe("ABABA");
  });
});
