import { contact, idParam, isPlainMultilineText, isPlainText, name, normaliseContact, phone } from "@sealwork/contracts";
import { hashPassword, verifyPassword } from "@sealwork/core/password";
import { describe, expect, it } from "vitest";

describe("contacts", () => {
  it("normalises emails to lower case and phones without spaces", () => {
    expect(normaliseContact("  Ada.Lovelace@Example.CH ")).toBe("ada.lovelace@example.ch");
    expect(normaliseContact("+41 79 123 45 67")).toBe("+41791234567");
  });

  it("accepts phones as a plus followed by 6 to 30 digits or spaces", () => {
    expect(phone.safeParse("+41 79 123 45 67").success).toBe(true);
    expect(phone.safeParse("+12345").success).toBe(false);
    expect(phone.safeParse("0791234567").success).toBe(false);
    expect(phone.safeParse("+41-79-123").success).toBe(false);
    expect(contact.safeParse("not an email").success).toBe(false);
  });
});

describe("plain text (names, titles, anything mailed or kept in the clear)", () => {
  it("keeps the world's scripts, emoji (with joiners and skin tones) and right-to-left text", () => {
    for (const fine of ["Zoë Müller-Łukasiewicz", "山田 太郎", "محمد علي", "שלום", "👩🏽‍💻 Dev", "🇨🇭 Team", "O'Brien & Co. (50%)"]) {
      expect(isPlainText(fine), fine).toBe(true);
      expect(name.safeParse(fine).success, fine).toBe(true);
    }
  });

  it("refuses control characters, separators, lone surrogates and bidi embeddings, overrides and isolates", () => {
    const hostile = ["a\r\nBcc: x", "a\nb", "a\tb", "a\u0000b", "a\u0007b", "a\u001bb", "a\u007fb", "a\u0085b", "a\u009fb", "a\u2028b", "a\u2029b", "a\ud83db", "a\ude00b", "a\u202ab", "a\u202eb", "a\u2066b", "a\u2069b"];
    for (const bad of hostile) {
      expect(isPlainText(bad), JSON.stringify(bad)).toBe(false);
      expect(name.safeParse(`Name ${bad}`).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("lets texts of several lines have line breaks and tabs, and nothing else of the kind", () => {
    expect(isPlainMultilineText("Hello,\r\nsee you\n\tMonday")).toBe(true);
    for (const bad of ["a\rb", "a\u0000b", "a\u2028b", "a\u202eb", "a\ud83db"]) expect(isPlainMultilineText(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe("password hashes", () => {
  it("are Argon2id, salted, and verify only the same password (Unicode normalised)", async () => {
    const hash = await hashPassword("Grüezi mitenand 1");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hashPassword("Grüezi mitenand 1")).not.toBe(hash);
    expect(await verifyPassword("Grüezi mitenand 1", hash)).toBe(true);
    expect(await verifyPassword("Gru\u0308ezi mitenand 1", hash)).toBe(true);
    expect(await verifyPassword("grüezi mitenand 1", hash)).toBe(false);
  });
});

describe("ids in paths and queries", () => {
  it("have one spelling: decimal digits, no sign, zero, padding, exponent, fraction or hex", () => {
    expect(idParam.parse("1")).toBe(1);
    expect(idParam.parse("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    for (const odd of ["0", "01", "0x1", "1e0", "1.0", "+1", "-1", " 1", "1 ", "%201", "１", "9007199254740992", "99999999999999999", ""]) {
      expect(idParam.safeParse(odd).success, odd).toBe(false);
    }
  });
});
