import { describe, expect, it } from "vitest";
import { base64urlDecode, base64urlEncode, concatBytes, equalBytes, hexDecode, hexEncode, tryBase64urlDecode, utf8Decode, utf8Encode } from "./bytes";
import { CryptoError } from "./errors";

describe("base64url", () => {
  it("encodes the RFC 4648 test strings without padding, with the URL alphabet", () => {
    const cases: [string, string][] = [["", ""], ["f", "Zg"], ["fo", "Zm8"], ["foo", "Zm9v"], ["foob", "Zm9vYg"], ["fooba", "Zm9vYmE"], ["foobar", "Zm9vYmFy"]];
    for (const [text, encoded] of cases) {
      expect(base64urlEncode(utf8Encode(text))).toBe(encoded);
      expect(utf8Decode(base64urlDecode(encoded))).toBe(text);
    }
    expect(base64urlEncode(Uint8Array.of(0xfb, 0xff, 0xbf))).toBe("-_-_");
  });

  it("round-trips every length and byte value", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      expect(base64urlDecode(base64urlEncode(bytes))).toEqual(bytes);
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64urlDecode(base64urlEncode(all))).toEqual(all);
  });

  it("accepts only the one canonical encoding", () => {
    for (const bad of ["Zg==", "Zm9v\n", " Zm9v", "Zm+v", "Zm/v", "Z", "Zh", "Zm9", "Zm9vY", "Zm9vYh", "Zm9vYi", "Zm\u00e9v", "Zm9v=", "ÿÿÿÿ"]) {
      expect(tryBase64urlDecode(bad), bad).toBeUndefined();
    }
    expect(tryBase64urlDecode(42)).toBeUndefined();
    expect(() => base64urlDecode("Zg==")).toThrow(CryptoError);
  });
});

describe("UTF-8", () => {
  it("round-trips Unicode without normalising it", () => {
    const nfc = "Grüezi 🔐 ß";
    const nfd = nfc.normalize("NFD");
    expect(hexEncode(utf8Encode(nfc))).toBe("4772c3bc657a6920f09f949020c39f");
    expect(utf8Encode(nfd)).not.toEqual(utf8Encode(nfc));
    expect(utf8Decode(utf8Encode(nfd))).toBe(nfd);
  });

  it("refuses lone surrogates and invalid byte sequences instead of replacing them", () => {
    expect(() => utf8Encode("a\ud800b")).toThrow(CryptoError);
    expect(() => utf8Encode("\udfff")).toThrow(CryptoError);
    expect(() => utf8Decode(Uint8Array.of(0xc3))).toThrow(CryptoError);
    expect(() => utf8Decode(Uint8Array.of(0xed, 0xa0, 0x80))).toThrow(CryptoError);
  });

  it("keeps a leading byte order mark", () => {
    expect(utf8Decode(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toBe("\ufeffa");
  });
});

describe("hex and helpers", () => {
  it("hex round trip, lower case only", () => {
    expect(hexEncode(hexDecode("00ff10ab"))).toBe("00ff10ab");
    expect(() => hexDecode("ABCD")).toThrow(CryptoError);
    expect(() => hexDecode("abc")).toThrow(CryptoError);
  });

  it("concat and compare", () => {
    expect(concatBytes(Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3))).toEqual(Uint8Array.of(1, 2, 3));
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(equalBytes(Uint8Array.of(1), Uint8Array.of(1, 0))).toBe(false);
  });
});
