import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";
import { CryptoError } from "./errors";

describe("canonicalJson", () => {
  it("sorts keys at every level by UTF-16 code units and drops whitespace", () => {
    const value = { b: 1, a: { d: [3, { z: true, y: null }], c: "x" }, B: 2, é: 0, "😀": 1, "\uff5e": 2 };
    expect(canonicalJson(value)).toBe('{"B":2,"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1,"é":0,"😀":1,"～":2}');
  });

  it("gives the same text for the same value however it was built", () => {
    const one = JSON.parse('{"x": 1, "y": [1, 2], "z": {"b": "ß", "a": "Grüezi 🔐"}}');
    const two = { z: { a: "Grüezi 🔐", b: "ß" }, y: [1, 2], x: 1 };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
  });

  it("writes numbers and strings as JSON.stringify does", () => {
    expect(canonicalJson([0, -0, 1.5, 1e21, 1e-7, -12])).toBe("[0,0,1.5,1e+21,1e-7,-12]");
    expect(canonicalJson('a"\\\n\u0001\u2028')).toBe('"a\\"\\\\\\n\\u0001\u2028"');
  });

  it("does not normalise Unicode (signer and verifier must hold the same text)", () => {
    expect(canonicalJson("ü")).not.toBe(canonicalJson("ü".normalize("NFD")));
  });

  it("keeps an own __proto__ key from parsed JSON", () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"a":1},"b":2}'))).toBe('{"__proto__":{"a":1},"b":2}');
  });

  it("refuses values JSON.stringify would drop or change", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const sparse = [1, 2];
    delete sparse[0];
    const bad: unknown[] = [
      undefined, { a: undefined }, [undefined], sparse, Number.NaN, Number.POSITIVE_INFINITY, 10n,
      () => 1, Symbol("s"), new Date(0), new Map(), Uint8Array.of(1), "\ud800", { "\udc00": 1 },
      { [Symbol("k")]: 1 }, cyclic,
    ];
    for (const value of bad) expect(() => canonicalJson(value), String(typeof value)).toThrow(CryptoError);
  });

  it("accepts objects without a prototype", () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 1;
    bare.a = 2;
    expect(canonicalJson(bare)).toBe('{"a":2,"b":1}');
  });
});
