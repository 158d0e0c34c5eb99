import { INVITATION_CODE_ALPHABET, RECOVERY_ALPHABET } from "@sealwork/contracts";
import { describe, expect, it } from "vitest";
import { generateInvitationCode, isInvitationCode, normalizeInvitationCode } from "./invitation-code";

describe("invitation codes (spec 000 §5)", () => {
  it("has 32 characters without I, L, O, U", () => {
    expect(new Set(INVITATION_CODE_ALPHABET).size).toBe(32);
    expect(INVITATION_CODE_ALPHABET).not.toMatch(/[ILOU]/);
  });

  it("makes eight characters of the set, using all of it", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const code = generateInvitationCode();
      expect(isInvitationCode(code)).toBe(true);
      for (const c of code) seen.add(c);
    }
    expect(seen.size).toBe(32);
  });

  it("upper-cases and strips spaces; refuses other lengths and characters", () => {
    expect(normalizeInvitationCode(" ab3d e7fz ")).toBe("AB3DE7FZ");
    expect(isInvitationCode("AB3DE7FZ")).toBe(true);
    expect(isInvitationCode("AB3DE7F")).toBe(false);
    expect(isInvitationCode("AB3DE7FI")).toBe(false);
  });

  it("reads typed look-alikes as in recovery codes: O as 0, I and L as 1, U as V", () => {
    // The rule is the recovery codes' because the alphabet is theirs.
    expect(INVITATION_CODE_ALPHABET).toBe(RECOVERY_ALPHABET);
    expect(normalizeInvitationCode("AB0D1E1V")).toBe("AB0D1E1V");
    expect(normalizeInvitationCode("ABOD-IELU")).toBe("AB0D1E1V");
    expect(normalizeInvitationCode("abod iel u")).toBe("AB0D1E1V");
    expect(isInvitationCode(normalizeInvitationCode("OOII LLUU"))).toBe(true);
  });
});
