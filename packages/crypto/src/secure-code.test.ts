import { describe, expect, it } from "vitest";
import { CryptoError } from "./errors";
import { generatePickupSecurityCode, isValidPickupSecurityCode, isValidSecureCode, normalizeSecureCode } from "./secure-code";

describe("secure-code rule (spec 000 section 5)", () => {
  it.each([
    ["abcdefg1", true],
    ["1234567a", true],
    ["Grüezi 🔐 ß7", true],
    ["Ångström 7", true],
    ["пароль12", true],
    ["abcdefgh", false],
    ["12345678", false],
    ["abc1", false],
    ["a1🔐🔐🔐🔐🔐🔐", true],
    ["a1🔐🔐🔐🔐🔐", false], // 7 code points, even though 12 UTF-16 units
    ["", false],
    ["abcdefg\ud8001", false],
  ])("%s → %s", (code, valid) => {
    expect(isValidSecureCode(code)).toBe(valid);
  });

  it("counts characters after NFC, so a decomposed code is not longer", () => {
    const nfd = "üüüüüü1".normalize("NFD"); // 13 UTF-16 units, 7 characters
    expect(nfd.length).toBe(13);
    expect(isValidSecureCode(nfd)).toBe(false);
    expect(isValidSecureCode(`${nfd}x`)).toBe(true);
  });

  it("refuses non-strings without throwing", () => {
    expect(isValidSecureCode(12345678 as unknown as string)).toBe(false);
    expect(isValidPickupSecurityCode(123456 as unknown as string)).toBe(false);
  });

  it("normalises to NFC and refuses empty codes and lone surrogates", () => {
    expect(normalizeSecureCode("Gru\u0308ezi")).toBe("Grüezi");
    expect(normalizeSecureCode("\u212Bngstrom")).toBe("\u00C5ngstrom");
    expect(() => normalizeSecureCode("")).toThrow(CryptoError);
    expect(() => normalizeSecureCode("a\udc00")).toThrow(CryptoError);
  });
});

describe("pickup security code", () => {
  it.each([
    ["123456", true],
    ["000000", true],
    ["12345", false],
    ["1234567", false],
    ["12345a", false],
    [" 123456", false],
    ["１２３４５６", false],
    ["١٢٣٤٥٦", false],
  ])("%s → %s", (code, valid) => {
    expect(isValidPickupSecurityCode(code)).toBe(valid);
  });

  it("generates six random digits", () => {
    const codes = Array.from({ length: 2000 }, generatePickupSecurityCode);
    for (const code of codes) expect(isValidPickupSecurityCode(code)).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    // Each position uses every digit (a biased or constant position would show up here).
    for (let i = 0; i < 6; i++) expect(new Set(codes.map((c) => c[i])).size).toBe(10);
  });
});
