import { DEFAULT_CURRENCY as SERVER_DEFAULT, CURRENCY_CODES_MAX as SERVER_MAX } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { CURRENCY_CODES_MAX, DEFAULT_CURRENCY, parseCurrencyCodes } from "./currency-codes";

describe("group currency codes (spec 001 §5)", () => {
  it("upper-cases, trims and drops repeats and blanks, keeping the first as the default", () => {
    expect(parseCurrencyCodes(" chf, eur ,,CHF, usd")).toEqual({ ok: true, codes: ["CHF", "EUR", "USD"] });
  });

  it("defaults to USD when empty", () => {
    expect(parseCurrencyCodes("  ")).toEqual({ ok: true, codes: ["USD"] });
  });

  it("refuses codes that are not ISO 4217, naming them", () => {
    expect(parseCurrencyCodes("CHF, XYZ1, ABC")).toEqual({ ok: false, unknown: ["XYZ1", "ABC"] });
  });

  it("refuses more than the server takes", () => {
    const many = Intl.supportedValuesOf("currency").slice(0, CURRENCY_CODES_MAX + 1).join(",");
    expect(parseCurrencyCodes(many)).toEqual({ ok: false, tooMany: true });
  });

  it("agrees with the server's constants", () => {
    expect(DEFAULT_CURRENCY).toBe(SERVER_DEFAULT);
    expect(CURRENCY_CODES_MAX).toBe(SERVER_MAX);
  });
});
