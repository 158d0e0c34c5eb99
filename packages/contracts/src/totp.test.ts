import { describe, expect, it } from "vitest";
import { RECOVERY_ALPHABET, formatRecoveryCode, isRecoveryCode, normaliseRecoveryCode } from "./totp";

describe("recovery codes (spec 000 §5)", () => {
  it("normalises look-alikes: L and I become 1, O becomes 0, U becomes V", () => {
    expect(normaliseRecoveryCode("lIoU")).toBe("110V");
    expect(normaliseRecoveryCode("abcde-fgh1o")).toBe("ABCDEFGH10");
    expect(normaliseRecoveryCode(" ab cd\te-12 345 ")).toBe("ABCDE12345");
  });

  it("uses an alphabet without the look-alike letters, so normalising never changes a real code", () => {
    expect(RECOVERY_ALPHABET).toHaveLength(32);
    expect(RECOVERY_ALPHABET).not.toMatch(/[ILOU]/);
    expect(normaliseRecoveryCode(RECOVERY_ALPHABET)).toBe(RECOVERY_ALPHABET);
  });

  it("tells a recovery code from other input", () => {
    expect(isRecoveryCode("abcde-12345")).toBe(true);
    expect(isRecoveryCode("ABCDE-1234")).toBe(false);
    expect(isRecoveryCode("123456")).toBe(false);
    expect(isRecoveryCode("ABCDE-1234!")).toBe(false);
  });

  it("formats for display with a hyphen after the fifth character", () => {
    expect(formatRecoveryCode("ABCDE12345")).toBe("ABCDE-12345");
  });
});
