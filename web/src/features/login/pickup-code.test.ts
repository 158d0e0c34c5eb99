import { describe, expect, it } from "vitest";
import { formatPickupCode, pickupCodeFromPaste } from "./pickup-code";

describe("formatPickupCode", () => {
  it("upper-cases, drops spaces and puts the hyphen after the fifth character", () => {
    expect(formatPickupCode("abab a12121")).toBe("ABABA-12121");
    expect(formatPickupCode("ababa")).toBe("ABABA");
    expect(formatPickupCode("ababa1")).toBe("ABABA-1");
  });

  it("keeps at most 10 characters and lets a typed hyphen be deleted", () => {
    expect(formatPickupCode("ABABA-12121ZZ")).toBe("ABABA-12121");
    expect(formatPickupCode("ABABA-")).toBe("ABABA");
  });
});

describe("pickupCodeFromPaste", () => {
  it("takes the first 10 alphanumerics of an address fragment", () => {
    expect(pickupCodeFromPaste("#ABABA12121x")).toBe("ABABA12121");
    expect(pickupCodeFromPaste("https://example.org/#cdcdc34343x")).toBe("CDCDC34343");
    expect(pickupCodeFromPaste("ABABA12121x")).toBe("ABABA12121");
    expect(pickupCodeFromPaste("ABABA-12121")).toBe("ABABA12121");
  });

  it("leaves ordinary typing and other text alone", () => {
    expect(pickupCodeFromPaste("ABA")).toBeNull();
    expect(pickupCodeFromPaste("https://example.org/some/page")).toBeNull();
    expect(pickupCodeFromPaste("#short")).toBeNull();
  });
});
