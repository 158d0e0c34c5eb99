import { describe, expect, it } from "vitest";
import { encrypt, generateSymmetricKey } from "./aead";
import { utf8Encode } from "./bytes";
import { associatedData, parseEnvelope, serializeEnvelope } from "./envelope";
import { CryptoError } from "./errors";

async function sample() {
  return encrypt(await generateSymmetricKey(), utf8Encode("x"), { aad: "a" });
}

describe("envelopes", () => {
  it("serialise to canonical JSON and parse back to an equal, separate object", async () => {
    const envelope = await sample();
    const text = serializeEnvelope(envelope);
    expect(text).toBe(`{"alg":"aes256gcm","ct":"${envelope.ct}","kind":"aead","nonce":"${envelope.nonce}","v":1}`);
    const parsed = parseEnvelope(text);
    expect(parsed).toEqual(envelope);
    expect(parseEnvelope(envelope)).not.toBe(envelope);
  });

  it("check the version first, then the kind, then the algorithm", async () => {
    const envelope = await sample();
    const codeOf = (input: unknown) => {
      try {
        parseEnvelope(input);
      } catch (error) {
        return (error as CryptoError).code;
      }
      return "accepted";
    };
    expect(codeOf({ ...envelope, v: 2, kind: "nope", alg: "nope", extra: 1 })).toBe("unsupported_version");
    expect(codeOf({ ...envelope, kind: "nope", alg: "nope", extra: 1 })).toBe("unknown_kind");
    expect(codeOf({ ...envelope, alg: "nope", extra: 1 })).toBe("unsupported_algorithm");
    expect(codeOf({ ...envelope, extra: 1 })).toBe("malformed_envelope");
    expect(codeOf(envelope)).toBe("accepted");
  });

  it("refuse a known kind where another is expected", async () => {
    const envelope = await sample();
    expect(() => parseEnvelope(envelope, "sealed")).toThrow(expect.objectContaining({ code: "wrong_kind" }));
    expect(parseEnvelope(envelope, "aead")).toEqual(envelope);
  });

  it("refuse oversized fields before decoding them", async () => {
    const envelope = await sample();
    const huge = "A".repeat(30 * 1024 * 1024);
    expect(() => parseEnvelope({ ...envelope, ct: huge })).toThrow(expect.objectContaining({ code: "malformed_envelope" }));
  });

  it("bind every header field and the caller's data into the associated data", () => {
    const header = { v: 1, kind: "aead", alg: "aes256gcm", nonce: "AAAAAAAAAAAAAAAA", ct: "ignored" };
    const aad = new TextDecoder().decode(associatedData(header, utf8Encode("mote:1")));
    expect(aad).toBe('{"aad":"bW90ZTox","header":{"alg":"aes256gcm","kind":"aead","nonce":"AAAAAAAAAAAAAAAA","v":1}}');
  });
});
