import { expect } from "vitest";
import { base64urlEncode, hexDecode, tryBase64urlDecode } from "./bytes";
import { type CryptoErrorCode, CryptoError } from "./errors";

/** Helpers for the package's tests; not exported from index.ts. */

export const hex = hexDecode;

/** Asserts a promise rejects with a CryptoError, optionally with one of the given codes. */
export async function expectRefusal(promise: Promise<unknown>, ...codes: CryptoErrorCode[]): Promise<CryptoError> {
  let result: unknown;
  try {
    result = await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    if (codes.length > 0) expect(codes).toContain((error as CryptoError).code);
    return error as CryptoError;
  }
  throw new Error(`expected a refusal (${codes.join(" or ") || "CryptoError"}), got a result: ${String(result)}`);
}

export interface Mutation {
  label: string;
  value: unknown;
  /** Codes this mutation may produce; any CryptoError if absent. */
  codes?: CryptoErrorCode[];
}

const BYTE_FLIP_CODES: Record<string, CryptoErrorCode[]> = {
  sig: ["bad_signature"],
};

/**
 * Every way we try to alter an envelope: each bit of each binary field (re-encoded as valid
 * base64url, so only authentication can catch it), character flips in every field, truncated
 * and extended fields, wrong types, missing and extra fields, other versions, kinds, algorithms.
 * `everyBit: false` samples the bits (for envelopes whose every opening runs Argon2id).
 */
export function* mutations(envelope: object, options: { everyBit?: boolean } = {}): Generator<Mutation> {
  const everyBit = options.everyBit ?? true;
  const original = envelope as Record<string, unknown>;
  const put = (key: string, value: unknown) => ({ ...original, [key]: value });

  for (const [key, value] of Object.entries(original)) {
    const bytes = typeof value === "string" && !["kind", "alg"].includes(key) ? tryBase64urlDecode(value) : undefined;
    if (bytes) {
      for (let bit = 0; bit < bytes.length * 8; bit++) {
        // Sampled: every bit of the first and last byte, one bit (rotating) of every other byte.
        const byte = bit >> 3;
        if (!everyBit && byte > 0 && byte < bytes.length - 1 && (bit & 7) !== byte % 8) continue;
        const flipped = new Uint8Array(bytes);
        flipped[bit >> 3]! ^= 1 << (bit & 7);
        yield { label: `${key} bit ${bit}`, value: put(key, base64urlEncode(flipped)), codes: BYTE_FLIP_CODES[key] ?? ["decrypt_failed"] };
      }
      yield { label: `${key} minus last byte`, value: put(key, base64urlEncode(bytes.subarray(0, -1))) };
      yield { label: `${key} plus a byte`, value: put(key, base64urlEncode(new Uint8Array([...bytes, 0]))) };
      yield { label: `${key} empty`, value: put(key, "") };
      yield { label: `${key} padded`, value: put(key, `${value}=`) };
      yield { label: `${key} with a space`, value: put(key, ` ${value}`) };
      yield { label: `${key} standard base64`, value: put(key, (value as string).replace(/-/g, "+").replace(/_/g, "/") + "+") };
      const text = value as string;
      for (let i = 0; i < text.length; i++) {
        if (!everyBit && i % 4 !== 0 && i !== text.length - 1) continue;
        yield { label: `${key} char ${i}`, value: put(key, flipChar(text, i, 0)) };
      }
    } else if (typeof value === "string") {
      for (let i = 0; i < value.length; i++) {
        for (let bit = 0; bit < 7; bit++) yield { label: `${key} char ${i} bit ${bit}`, value: put(key, flipChar(value, i, bit)) };
      }
      yield { label: `${key} upper case`, value: put(key, value.toUpperCase()) };
      yield { label: `${key} trailing space`, value: put(key, `${value} `) };
      yield { label: `${key} empty`, value: put(key, "") };
    } else if (typeof value === "number") {
      for (let bit = 0; bit < 31; bit++) {
        yield { label: `${key} bit ${bit}`, value: put(key, value ^ (1 << bit)) };
      }
      for (const other of [0, -value, value + 0.5, Number.MAX_SAFE_INTEGER, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY]) {
        yield { label: `${key} = ${other}`, value: put(key, other) };
      }
      yield { label: `${key} as string`, value: put(key, String(value)) };
    }
    for (const wrong of [null, true, [], {}, 7, "x", [value], { value }]) {
      if (wrong !== value) yield { label: `${key} as ${JSON.stringify(wrong)}`, value: put(key, wrong) };
    }
    const { [key]: _removed, ...rest } = original;
    yield { label: `missing ${key}`, value: rest, codes: ["malformed_envelope"] };
  }

  yield { label: "extra field", value: put("extra", 1), codes: ["malformed_envelope"] };
  yield { label: "extra aad field", value: put("aad", ""), codes: ["malformed_envelope"] };
  for (const v of [0, 2, 1.1, -1]) yield { label: `v = ${v}`, value: put("v", v), codes: ["unsupported_version"] };
  yield { label: "v as string", value: put("v", "1"), codes: ["malformed_envelope"] };
  yield { label: "unknown kind", value: put("kind", "sealed-v2"), codes: ["unknown_kind"] };
  yield { label: "kind __proto__", value: put("kind", "__proto__"), codes: ["unknown_kind"] };
  yield { label: "kind toString", value: put("kind", "toString"), codes: ["unknown_kind"] };
  yield { label: "other algorithm", value: put("alg", "aes128gcm"), codes: ["unsupported_algorithm"] };
  for (const whole of [null, undefined, [], 1, "", "null", "[]", "{}", "not json", [original]]) {
    yield { label: `whole envelope ${JSON.stringify(whole)}`, value: whole };
  }
}

/** Text forms of a valid envelope that are not its canonical JSON. */
export function* nonCanonicalTexts(envelope: object): Generator<Mutation> {
  const record = envelope as Record<string, unknown>;
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1))));
  const reversed = JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? 1 : -1))));
  yield { label: "keys in reverse order", value: reversed, codes: ["malformed_envelope"] };
  yield { label: "pretty printed", value: JSON.stringify(JSON.parse(canonical), null, 2), codes: ["malformed_envelope"] };
  yield { label: "trailing newline", value: `${canonical}\n`, codes: ["malformed_envelope"] };
  yield { label: "duplicate version", value: canonical.replace('"v":1}', '"v":2,"v":1}'), codes: ["malformed_envelope"] };
  yield { label: "escaped character", value: canonical.replace('"v":1', '"\\u0076":1'), codes: ["malformed_envelope"] };
  yield { label: "version 1.0", value: canonical.replace('"v":1', '"v":1.0'), codes: ["malformed_envelope"] };
  yield { label: "truncated", value: canonical.slice(0, -1), codes: ["malformed_envelope"] };
}

function flipChar(text: string, index: number, bit: number): string {
  return text.slice(0, index) + String.fromCharCode(text.charCodeAt(index) ^ (1 << bit)) + text.slice(index + 1);
}
