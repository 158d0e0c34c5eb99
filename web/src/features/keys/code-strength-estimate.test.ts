import { describe, expect, it } from "vitest";
import { estimateCodeStrength } from "./code-strength-estimate";

describe("the secure code's strength estimate (issue 11, item 9)", () => {
  it("finds common passwords and keyboard patterns weak, with a warning in the interface's language", async () => {
    for (const weak of ["password1", "Passwort123", "qwertz12", "abcd1234"]) expect((await estimateCodeStrength(weak, "en")).score).toBeLessThanOrEqual(1);
    expect((await estimateCodeStrength("password1", "en")).warning).toMatch(/common/i);
    expect((await estimateCodeStrength("password1", "de")).warning).toMatch(/Passw/);
  });

  it("finds long passphrases and random codes strong", async () => {
    expect((await estimateCodeStrength("correct horse battery staple", "en")).score).toBe(4);
    expect((await estimateCodeStrength("e2e-secure-code-1", "en")).score).toBeGreaterThanOrEqual(3);
    expect((await estimateCodeStrength("q7#Lm2!vX9@r", "de")).guesses).toBeGreaterThan(1e10);
  });

  it("knows German words for German speakers, and penalises the user's own name and email", async () => {
    expect((await estimateCodeStrength("schmetterling", "de")).guesses).toBeLessThan((await estimateCodeStrength("schmetterling", "en")).guesses);
    expect((await estimateCodeStrength("annaberger2024", "en", ["Annaberger", "anna@example.ch"])).guesses).toBeLessThan((await estimateCodeStrength("annaberger2024", "en")).guesses);
  });
});
